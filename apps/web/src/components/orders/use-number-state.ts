import {
  ACTIVATION_LIFETIME_MS,
  cancelBlockOf,
  isLiveNumber,
  NUMBER_STATUS,
  NUMBERS_REFRESH_MS,
  numberStatusOf,
  type PurchasedNumber,
  secondsUntilCancel,
} from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { numberStatusQuery } from './api';
import { numberStatusText } from './number-status-text';

/**
 * What a number shows, kept current: the status line (polled while the number is live), its code, the
 * seconds left, why it cannot be canceled, and the seconds until its supplier allows a cancel. The numbers' cards and the dashboard's Active numbers panel
 * both read it.
 */
export function useNumberState(number: PurchasedNumber, now: number) {
  const live = isLiveNumber(number);
  const status = useQuery({
    ...numberStatusQuery(number.number_id ?? ''),
    enabled: live && number.number_id !== null,
    refetchInterval: live ? NUMBERS_REFRESH_MS : false,
  });
  // A number that is over answers what it ended with: no call.
  const remoteStatus = live ? status.data?.status : numberStatusOf(number).status;
  const statusText = numberStatusText({
    numberId: number.number_id,
    remoteStatus,
    failed: live && status.isError && !status.data,
  });
  const code = remoteStatus?.startsWith(NUMBER_STATUS.okPrefix)
    ? remoteStatus.slice(NUMBER_STATUS.okPrefix.length)
    : number.code;
  const secondsLeft = Math.max(
    0,
    Math.floor((new Date(number.created_at).getTime() + ACTIVATION_LIFETIME_MS - now) / 1000),
  );
  const cancelOpensIn = secondsUntilCancel(number, now);
  const cancelBlock = cancelBlockOf(
    { status: number.status, code },
    {
      expired: secondsLeft <= 0,
      canceledUpstream: remoteStatus === NUMBER_STATUS.canceled,
      earlyCancel: cancelOpensIn > 0,
    },
  );
  return { live, statusText, code, secondsLeft, cancelBlock, cancelOpensIn };
}

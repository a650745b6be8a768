import { NUMBER_STATUS, numberMessages, type PurchasedNumber } from '@simcode/contract';

/**
 * The status line of spec section 4: the code after STATUS_OK:, 'Code received' for a bare STATUS_OK,
 * the fixed texts for waiting and cancelled, anything else raw, '...' while unknown, 'N/A' without a
 * number id and 'Error' when polling failed.
 */
export function numberStatusText(input: {
  numberId: string | null;
  remoteStatus: string | undefined;
  failed: boolean;
}): string {
  if (!input.numberId) return numberMessages.statusNoNumber;
  if (input.failed) return numberMessages.statusError;
  const status = input.remoteStatus;
  if (status === undefined) return numberMessages.statusUnknown;
  if (status.startsWith(NUMBER_STATUS.okPrefix))
    return status.slice(NUMBER_STATUS.okPrefix.length) || numberMessages.statusCodeReceived;
  if (status === NUMBER_STATUS.okPrefix.slice(0, -1)) return numberMessages.statusCodeReceived;
  if (status === NUMBER_STATUS.waiting) return numberMessages.statusWaiting;
  if (status === NUMBER_STATUS.canceled) return numberMessages.statusCanceled;
  return status;
}

/** Numbers whose status can still change: these are polled; the rest read their final status from the list. */
export function isLive(number: Pick<PurchasedNumber, 'status'>): boolean {
  return number.status === 'pending' || number.status === 'waiting' || number.status === 'received';
}

/** The status string a finished number would answer, so it needs no call. */
export function finalStatusString(number: Pick<PurchasedNumber, 'status' | 'code'>): string {
  if (number.status === 'received' || number.status === 'completed') {
    return number.code ? `${NUMBER_STATUS.okPrefix}${number.code}` : NUMBER_STATUS.okPrefix.slice(0, -1);
  }
  if (number.status === 'pending' || number.status === 'waiting') return NUMBER_STATUS.waiting;
  return NUMBER_STATUS.canceled;
}

/**
 * Why Cancel (and so Replace, which cancels first) cannot succeed on this number, in the server's words,
 * or null when it can: a disabled button says why instead of answering with an error toast.
 */
export function cancelBlockedReason(
  number: Pick<PurchasedNumber, 'status' | 'code'>,
  input: { remoteCanceled: boolean; secondsLeft: number },
): string | null {
  if (number.status === 'received' || number.status === 'completed' || number.code)
    return numberMessages.cancelAfterCode;
  if (number.status === 'canceled' || number.status === 'expired' || input.remoteCanceled)
    return numberMessages.alreadyCanceled;
  if (number.status === 'pending') return numberMessages.stillIssuing;
  if (input.secondsLeft <= 0) return numberMessages.cancelAfterExpiry;
  return null;
}

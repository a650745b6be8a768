import {
  RENT_STATUS,
  type RentSms,
  type RentStatus,
  type RentStatusResponse,
  rentMessages,
} from '@simcode/contract';

type RentSmsView =
  | { kind: 'messages'; messages: RentSms[] }
  | { kind: 'text'; text: string; tone: 'muted' | 'waiting' | 'active' | 'error' };

/**
 * The received-SMS column of spec section 4: the error text when there is one; every SMS when the answer
 * is success with values; 'Waiting for SMS' for STATUS_WAIT_CODE, 'Order canceled' for STATUS_CANCEL,
 * 'Active' or 'Renewed' for STATUS_FINISH on a live rent, 'No SMS yet' for success without values.
 * Beyond the spec: '...' while unknown, 'Error' when the status could not be read, 'Rental ended' for an
 * ended rent without SMS, and any other message as it is.
 */
export function rentSmsView(input: {
  response: RentStatusResponse | undefined;
  rentStatus: RentStatus;
  failed: boolean;
}): RentSmsView {
  const { response, rentStatus } = input;
  if (!response) {
    return input.failed
      ? { kind: 'text', text: rentMessages.smsError, tone: 'error' }
      : { kind: 'text', text: rentMessages.smsUnknown, tone: 'muted' };
  }
  if (response.error) return { kind: 'text', text: response.error, tone: 'error' };
  if (response.status === 'success') {
    return response.values.length > 0
      ? { kind: 'messages', messages: response.values }
      : { kind: 'text', text: rentMessages.smsNone, tone: 'waiting' };
  }
  switch (response.message) {
    case RENT_STATUS.waiting:
      return { kind: 'text', text: rentMessages.smsWaiting, tone: 'waiting' };
    case RENT_STATUS.canceled:
      return { kind: 'text', text: rentMessages.smsCanceled, tone: 'muted' };
    case RENT_STATUS.finished:
      if (rentStatus === 'active') return { kind: 'text', text: rentMessages.smsActive, tone: 'active' };
      if (rentStatus === 'renewed') return { kind: 'text', text: rentMessages.smsRenewed, tone: 'active' };
      return { kind: 'text', text: rentMessages.smsEnded, tone: 'muted' };
    default:
      return { kind: 'text', text: response.message ?? rentMessages.smsUnknown, tone: 'muted' };
  }
}

/** 'sender: text', as the column shows each SMS. */
export function smsLine(sms: Pick<RentSms, 'phoneFrom' | 'text'>): string {
  return `${sms.phoneFrom}: ${sms.text}`;
}

/** Splits an SMS text around its code, so the code can be highlighted where it stands. */
export function splitAroundCode(text: string, code: string | null): [string, string | null, string] {
  const at = code ? text.indexOf(code) : -1;
  if (!code || at < 0) return [text, null, ''];
  return [text.slice(0, at), code, text.slice(at + code.length)];
}

/** Seconds left until the end date (0 once passed). */
export function secondsLeft(endDate: string | null, nowMs: number): number {
  if (!endDate) return 0;
  return Math.max(0, Math.floor((new Date(endDate).getTime() - nowMs) / 1000));
}

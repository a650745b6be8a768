import { NUMBER_STATUS, numberMessages } from '@simcode/contract';

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

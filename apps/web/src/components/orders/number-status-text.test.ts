import { describe, expect, it } from 'vitest';
import { numberStatusText } from './number-status-text';

describe('numberStatusText (spec section 4)', () => {
  it.each([
    [{ numberId: '1', remoteStatus: 'STATUS_OK:48213', failed: false }, '48213'],
    [{ numberId: '1', remoteStatus: 'STATUS_OK:12:34', failed: false }, '12:34'],
    [{ numberId: '1', remoteStatus: 'STATUS_OK:', failed: false }, 'Code received'],
    [{ numberId: '1', remoteStatus: 'STATUS_OK', failed: false }, 'Code received'],
    [
      { numberId: '1', remoteStatus: 'STATUS_WAIT_CODE', failed: false },
      'Waiting for an SMS from the sender',
    ],
    [{ numberId: '1', remoteStatus: 'STATUS_CANCEL', failed: false }, 'Order canceled'],
    [{ numberId: '1', remoteStatus: 'STATUS_WAIT_RETRY:1', failed: false }, 'STATUS_WAIT_RETRY:1'],
    [{ numberId: '1', remoteStatus: undefined, failed: false }, '...'],
    [{ numberId: null, remoteStatus: 'STATUS_OK:1', failed: false }, 'N/A'],
    [{ numberId: '1', remoteStatus: 'STATUS_OK:1', failed: true }, 'Error'],
  ])('%j shows %s', (input, text) => {
    expect(numberStatusText(input)).toBe(text);
  });
});

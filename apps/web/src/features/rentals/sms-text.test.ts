import { type RentStatus, type RentStatusResponse, rentMessages } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import { rentSmsView, secondsLeft, smsLine, splitAroundCode } from './sms-text';

const sms = (phoneFrom: string, text: string, code: string | null = null) => ({
  phoneFrom,
  text,
  code,
  date: '2026-03-01T10:00:00.000Z',
});
const answer = (
  status: 'success' | 'error',
  message: string | null,
  values = [] as RentStatusResponse['values'],
  error: string | null = null,
): RentStatusResponse => ({
  status,
  message,
  values,
  error,
});
const two = [sms('DHL', 'Parcel today'), sms('Telegram', 'Telegram code: 12345', '12345')];

describe('the received-SMS column (spec section 4)', () => {
  it.each<[string, RentStatusResponse | undefined, RentStatus, boolean, string | string[]]>([
    [
      'error text, when present',
      answer('error', 'STATUS_CANCEL', [], 'The rental did not go through.'),
      'canceled',
      false,
      'The rental did not go through.',
    ],
    [
      'error text even beside values',
      answer('success', null, two, 'Provider note'),
      'active',
      false,
      'Provider note',
    ],
    [
      'success with values: every SMS',
      answer('success', null, two),
      'active',
      false,
      ['DHL: Parcel today', 'Telegram: Telegram code: 12345'],
    ],
    [
      'success with values on an ended rent',
      answer('success', null, two),
      'expired',
      false,
      ['DHL: Parcel today', 'Telegram: Telegram code: 12345'],
    ],
    [
      'error with STATUS_WAIT_CODE',
      answer('error', 'STATUS_WAIT_CODE'),
      'active',
      false,
      rentMessages.smsWaiting,
    ],
    ['STATUS_CANCEL', answer('error', 'STATUS_CANCEL'), 'canceled', false, rentMessages.smsCanceled],
    ['STATUS_FINISH with active', answer('error', 'STATUS_FINISH'), 'active', false, rentMessages.smsActive],
    [
      'STATUS_FINISH with renewed',
      answer('error', 'STATUS_FINISH'),
      'renewed',
      false,
      rentMessages.smsRenewed,
    ],
    ['success with no values', answer('success', null, []), 'active', false, rentMessages.smsNone],
    [
      'STATUS_FINISH on an expired rent',
      answer('error', 'STATUS_FINISH'),
      'expired',
      false,
      rentMessages.smsEnded,
    ],
    ['another message, as it is', answer('error', 'STATUS_REVOKE'), 'active', false, 'STATUS_REVOKE'],
    ['not read yet', undefined, 'active', false, rentMessages.smsUnknown],
    ['a failed read', undefined, 'active', true, rentMessages.smsError],
  ])('%s', (_case, response, rentStatus, failed, expected) => {
    const view = rentSmsView({ response, rentStatus, failed });
    if (Array.isArray(expected)) {
      expect(view.kind).toBe('messages');
      expect(view.kind === 'messages' && view.messages.map(smsLine)).toEqual(expected);
    } else {
      expect(view).toMatchObject({ kind: 'text', text: expected });
    }
  });

  it('keeps the server order, newest first', () => {
    const view = rentSmsView({ response: answer('success', null, two), rentStatus: 'active', failed: false });
    expect(view.kind === 'messages' && view.messages[0]?.phoneFrom).toBe('DHL');
  });
});

describe('helpers', () => {
  it('splits a text around its code', () => {
    expect(splitAroundCode('Telegram code: 12345. Do not', '12345')).toEqual([
      'Telegram code: ',
      '12345',
      '. Do not',
    ]);
    expect(splitAroundCode('No code', null)).toEqual(['No code', null, '']);
    expect(splitAroundCode('Code elsewhere', '999')).toEqual(['Code elsewhere', null, '']);
  });

  it('counts whole seconds to the end date, never below zero', () => {
    const end = '2026-03-01T10:00:00.000Z';
    expect(secondsLeft(end, Date.parse(end) - 90_500)).toBe(90);
    expect(secondsLeft(end, Date.parse(end) + 1000)).toBe(0);
    expect(secondsLeft(null, 0)).toBe(0);
  });
});

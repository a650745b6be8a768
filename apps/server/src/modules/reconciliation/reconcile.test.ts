import { describe, expect, it } from 'vitest';
import { type ChargeRow, mismatchOf } from './reconcile';

// Issue 31: each way a supplier's closed order and ours can disagree gets its own cause, and its amount
// is what the supplier kept (or gave back) for it.

/** A supplier order that kept 150 cents for our order 7, which the buyer paid for. */
const billedAndSold: ChargeRow = {
  provider_order_id: 'up-1',
  order_id: 7,
  kept_cents: '150',
  returned_cents: '0',
  supplier_state: 'billed',
  order_status: 'completed',
  late_code: false,
  cancel_refused: false,
};

describe('what a closed supplier order and ours disagree on', () => {
  it.each<[string, Partial<ChargeRow>, ReturnType<typeof mismatchOf>]>([
    ['billed and sold: nothing', {}, undefined],
    ['billed, and our order still holding the code: nothing', { order_status: 'received' }, undefined],
    [
      'returned and refunded: nothing',
      { kept_cents: '0', returned_cents: '150', supplier_state: 'returned', order_status: 'canceled' },
      undefined,
    ],
    [
      'billed for an order we refunded',
      { order_status: 'expired' },
      { cause: 'refunded_but_charged', amountCents: 150 },
    ],
    [
      'billed because a code came after our refund',
      { order_status: 'canceled', late_code: true },
      { cause: 'code_after_refund', amountCents: 150 },
    ],
    [
      'billed because the supplier refused our cancel',
      { order_status: 'failed', cancel_refused: true },
      { cause: 'cancelled_late', amountCents: 150 },
    ],
    [
      'a late code wins over a refused cancel as the cause',
      { order_status: 'canceled', late_code: true, cancel_refused: true },
      { cause: 'code_after_refund', amountCents: 150 },
    ],
    [
      'returned to us for an order the buyer paid for',
      { kept_cents: '0', returned_cents: '150', supplier_state: 'returned', order_status: 'completed' },
      { cause: 'billed_but_returned', amountCents: 150 },
    ],
    [
      'billed outside any order of ours',
      { order_id: null, order_status: null },
      { cause: 'charged_without_order', amountCents: 150 },
    ],
    [
      'returned outside any order of ours: nothing',
      { order_id: null, order_status: null, kept_cents: '0', supplier_state: 'returned' },
      undefined,
    ],
  ])('%s', (_name, change, expected) => {
    expect(mismatchOf({ ...billedAndSold, ...change })).toEqual(expected);
  });
});

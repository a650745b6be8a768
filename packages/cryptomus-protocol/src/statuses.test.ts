import { describe, expect, it } from 'vitest';
import { isFailedStatus, isFinalStatus, isPaidStatus, isRefundStatus, shouldCredit } from './statuses';

describe('status helpers', () => {
  it('credits only final paid and paid_over', () => {
    expect(isPaidStatus('paid')).toBe(true);
    expect(isPaidStatus('paid_over')).toBe(true);
    for (const status of [
      'check',
      'confirm_check',
      'wrong_amount',
      'wrong_amount_waiting',
      'refund_paid',
      'PAID',
    ]) {
      expect(isPaidStatus(status), status).toBe(false);
    }
    expect(shouldCredit({ status: 'paid', isFinal: true })).toBe(true);
    expect(shouldCredit({ status: 'paid', isFinal: false })).toBe(false);
    expect(shouldCredit({ status: 'wrong_amount', isFinal: true })).toBe(false);
  });

  it('classifies failures, refunds and finality', () => {
    for (const status of ['cancel', 'fail', 'system_fail', 'wrong_amount'])
      expect(isFailedStatus(status)).toBe(true);
    expect(isFailedStatus('wrong_amount_waiting')).toBe(false);
    expect(isRefundStatus('refund_process')).toBe(true);
    expect(isFinalStatus('paid')).toBe(true);
    expect(isFinalStatus('cancel')).toBe(true);
    for (const status of [
      'check',
      'confirm_check',
      'process',
      'wrong_amount_waiting',
      'locked',
      'something_new',
    ]) {
      expect(isFinalStatus(status), status).toBe(false);
    }
  });
});

import type { ReconciliationDay } from '@simcode/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';
import { reconciliationMismatches } from '../../db/schema';
import {
  deliveryLowConditions,
  lateSmsConditions,
  leakageConditions,
  pairDeliveryLowConditions,
} from './conditions';
import { DEFAULT_ALERT_SETTINGS } from './settings';

let t: TestApp | undefined;
afterEach(async () => {
  if (t) await closeTestApp(t);
  t = undefined;
});

describe('the delivery-rate alert', () => {
  it('holds for each supplier out of its band, saying why, and for no other', () => {
    const now = new Date('2026-11-27T07:00:00Z');
    const why = 'delivery rate 40% in the last hour, normally 85%';
    expect(deliveryLowConditions(new Map([['sim-a', why]]), now)).toEqual([
      {
        key: 'supplier_delivery_low:sim-a',
        kind: 'supplier_delivery_low',
        summary: `Supplier sim-a delivers codes worse than usual: ${why}.`,
        evidence: { provider: 'sim-a', why },
        link: '/admin/providers',
        since: now,
      },
    ]);
    expect(deliveryLowConditions(new Map(), now)).toEqual([]);
  });

  it('holds for each popular pair out of its band, named as buyers know it, linked to its index page', () => {
    const now = new Date('2026-11-27T07:00:00Z');
    const why = 'delivery rate 0% in the last hour, normally 100%';
    expect(pairDeliveryLowConditions(new Map([['tg:US', why]]), now)).toEqual([
      {
        key: 'pair_delivery_low:tg:US',
        kind: 'pair_delivery_low',
        summary: `Telegram in United States delivers codes worse than usual: ${why}.`,
        evidence: { service: 'tg', country: 'US', why },
        link: '/stats/tg',
        since: now,
      },
    ]);
  });
});

describe('the reconciliation alerts', () => {
  const day = (provider: string, leakageCents: number, leakagePercent: number): ReconciliationDay => ({
    provider,
    day: '2026-11-26',
    bought: 100,
    cost_cents: 10_000,
    returned_cents: 0,
    refunded_cents: 0,
    leakage_cents: leakageCents,
    leakage_percent: leakagePercent,
    mismatches: 3,
    complete: true,
    balance_change_cents: null,
    unexplained_cents: null,
  });

  it('holds for a supplier-day whose leakage share is above the threshold, not at it', () => {
    const settings = { ...DEFAULT_ALERT_SETTINGS, leakageThresholdPercent: 5 };
    const conditions = leakageConditions([day('sim-a', 600, 6), day('sim-b', 500, 5)], settings);
    expect(conditions).toEqual([
      expect.objectContaining({
        key: 'reconciliation_leakage:sim-a:2026-11-26',
        kind: 'reconciliation_leakage',
        summary: 'Supplier sim-a leaked $6.00 (6% of its net cost) on 2026-11-26, above the 5% threshold.',
        link: '/admin/reconciliation?from=2026-11-26&to=2026-11-26&provider=sim-a',
      }),
    ]);
  });

  it('holds for a supplier with as many open codes after a refund as the threshold, in the last two days', async () => {
    t = await createTestApp();
    const now = new Date('2026-11-27T07:00:00Z');
    const mismatch = (provider: string, id: string, day: string, state: 'open' | 'written_off' = 'open') => ({
      provider,
      day,
      orderKind: 'activation' as const,
      providerOrderId: id,
      cause: 'code_after_refund' as const,
      amountCents: 50,
      state,
      foundAt: new Date(`${day}T03:00:00Z`),
      updatedAt: now,
    });
    await t.ctx.database.db.insert(reconciliationMismatches).values([
      mismatch('sim-a', 'a1', '2026-11-26'),
      mismatch('sim-a', 'a2', '2026-11-27'),
      // Written off, or older than the two days: not counted.
      mismatch('sim-a', 'a3', '2026-11-27', 'written_off'),
      mismatch('sim-b', 'b1', '2026-11-24'),
      mismatch('sim-b', 'b2', '2026-11-27'),
    ]);
    const settings = { ...DEFAULT_ALERT_SETTINGS, lateSmsThreshold: 2 };
    expect(await lateSmsConditions(t.ctx.database.db, settings, now)).toEqual([
      expect.objectContaining({
        key: 'late_sms_after_refund:sim-a',
        summary:
          'Supplier sim-a delivered 2 code(s) on orders already refunded to the customer since 2026-11-26.',
        evidence: { provider: 'sim-a', orders: 2 },
        since: new Date('2026-11-26T03:00:00Z'),
      }),
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Activation } from '../../../db/schema';
import type { ActiveActivation } from '../../../providers/sms/types';
import { closestUnclaimed } from './sync';

const T = Date.UTC(2026, 10, 25, 12, 0, 0);

function listed(activationId: string, service: string, offsetMs: number | null): ActiveActivation {
  return {
    activationId,
    phoneNumber: `1555000${activationId.padStart(4, '0')}`,
    service,
    countryId: 'US',
    state: { kind: 'waiting' },
    codes: [],
    ...(offsetMs === null ? {} : { activatedAt: new Date(T + offsetMs) }),
  };
}

function stuck(offsetMs: number): Activation {
  return { service: 'tg', countryId: 'US', createdAt: new Date(T + offsetMs) } as Activation;
}

describe('matching a stuck purchase to the number it may have issued', () => {
  it('takes the closest in time among the same service and country, so two stuck purchases get their own', () => {
    const unclaimed = new Map(
      [listed('1', 'tg', 90_000), listed('2', 'tg', 5_000), listed('3', 'wa', 0)].map((item) => [
        item.activationId,
        item,
      ]),
    );
    expect(closestUnclaimed(stuck(0), unclaimed)?.activationId).toBe('2');
    expect(closestUnclaimed(stuck(80_000), unclaimed)?.activationId).toBe('1');
  });

  it('leaves a purchase unmatched when nothing was started within three minutes of it', () => {
    const unclaimed = new Map([['1', listed('1', 'tg', 4 * 60_000)]]);
    expect(closestUnclaimed(stuck(0), unclaimed)).toBeUndefined();
  });

  it('still matches an activation whose start time the provider does not give, after any that it does', () => {
    const unclaimed = new Map([
      ['1', listed('1', 'tg', null)],
      ['2', listed('2', 'tg', 170_000)],
    ]);
    expect(closestUnclaimed(stuck(0), unclaimed)?.activationId).toBe('2');
    expect(closestUnclaimed(stuck(0), new Map([['1', listed('1', 'tg', null)]]))?.activationId).toBe('1');
  });
});

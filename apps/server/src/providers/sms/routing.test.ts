import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock';
import { ProviderHealth } from './health';
import { type ProviderOffer, parseRoutingPins, rankOffers } from './routing';

function setup(pins = '') {
  const clock = new ManualClock(Date.parse('2026-11-25T12:00:00Z'));
  const health = new ProviderHealth({ clock, failuresToCool: 3, cooldownMs: 60_000 });
  const priority = ['hero', 'bower', 'grizzly'];
  const context = { health, priority, pins: parseRoutingPins(pins, priority) };
  const rank = (offers: ProviderOffer[]) =>
    rankOffers(offers, 'tg', 'US', context).map((offer) => offer.provider);
  return { clock, health, rank };
}

function offer(provider: string, priceCents: number, stock = 100): ProviderOffer {
  return {
    provider,
    upstreamCost: priceCents / 130,
    costCents: Math.ceil(priceCents / 1.3),
    priceCents,
    stock,
  };
}

const pair = { service: 'tg', countryId: 'US' };

describe('routing score', () => {
  it('with no record, prefers the lower price, then the configured order; leaves out offers without stock', () => {
    const { rank } = setup();
    expect(rank([offer('hero', 50), offer('bower', 40), offer('grizzly', 30, 0)])).toEqual(['bower', 'hero']);
    expect(rank([offer('bower', 40), offer('hero', 40)])).toEqual(['hero', 'bower']);
  });

  it('puts delivery before price: a provider whose numbers get codes wins over a cheaper one whose do not', () => {
    const { health, rank } = setup();
    for (let order = 0; order < 20; order += 1) {
      health.recordDelivery('hero', pair, true, 20_000);
      health.recordDelivery('bower', pair, order % 2 === 0, 20_000);
    }
    expect(rank([offer('hero', 50), offer('bower', 40)])).toEqual(['hero', 'bower']);
  });

  it('puts a shorter time to code before price when delivery rates are alike', () => {
    const { health, rank } = setup();
    for (let order = 0; order < 20; order += 1) {
      health.recordDelivery('hero', pair, true, 10_000);
      health.recordDelivery('bower', pair, true, 150_000);
    }
    expect(rank([offer('hero', 50), offer('bower', 40)])).toEqual(['hero', 'bower']);
  });

  it('sidelines a provider that just said "no numbers" for the pair, for a minute', () => {
    const { clock, health, rank } = setup();
    health.recordCall('bower', 'no_numbers', 100, pair);
    expect(rank([offer('hero', 50), offer('bower', 40)])).toEqual(['hero', 'bower']);
    clock.advance(61_000);
    expect(rank([offer('hero', 50), offer('bower', 40)])).toEqual(['bower', 'hero']);
  });

  it('cools a provider down after failures in a row, then lets one probe bring it back or cool it again', () => {
    const { clock, health, rank } = setup();
    health.recordCall('bower', 'error', 100);
    health.recordCall('bower', 'error', 100);
    expect(health.isCooling('bower')).toBe(false);
    health.recordCall('bower', 'error', 100);
    expect(health.isCooling('bower')).toBe(true);
    expect(rank([offer('hero', 50), offer('bower', 40)])).toEqual(['hero', 'bower']);

    clock.advance(60_000);
    expect(health.isCooling('bower')).toBe(false);
    // The probe fails: straight back into cool-down.
    health.recordCall('bower', 'error', 100);
    expect(health.isCooling('bower')).toBe(true);
    clock.advance(60_000);
    // The probe passes: back in routing, its failures forgotten.
    health.recordCall('bower', 'ok', 100);
    expect(health.isCooling('bower')).toBe(false);
    health.recordCall('bower', 'error', 100);
    expect(health.isCooling('bower')).toBe(false);
    expect(health.snapshot('bower')).toMatchObject({ calls: 6, errorRate: 5 / 6, coolingUntil: null });
  });

  it('follows a pin for the service or the country, the most specific first, unless the pinned one is sidelined', () => {
    const { health, rank } = setup('tg=grizzly,US=bower,tg:US=hero');
    expect(rank([offer('hero', 50), offer('bower', 40), offer('grizzly', 30)])).toEqual([
      'hero',
      'grizzly',
      'bower',
    ]);
    for (let failure = 0; failure < 3; failure += 1) health.recordCall('hero', 'error', 100);
    expect(rank([offer('hero', 50), offer('bower', 40)])).toEqual(['bower', 'hero']);
  });

  it('refuses a pin to a provider outside the pool, or one it cannot read', () => {
    expect(() => parseRoutingPins('tg=nobody', ['hero'])).toThrow(/not one of SMS_PROVIDERS/);
    expect(() => parseRoutingPins('tg:us=hero', ['hero'])).toThrow(/cannot read/);
  });
});

import type { ProviderHealth } from './health';

/** One provider's offer for a (country, service), priced in our cents. */
export interface ProviderOffer {
  provider: string;
  /** What the provider asks, in its currency: the ceiling we pass when buying there. */
  upstreamCost: number;
  /** The provider's cost in our cents (cost × its dollar rate × 100, rounded up). */
  costCents: number;
  /** Our sale price were this offer the one routed to. */
  priceCents: number;
  stock: number;
  /** Each operator's own offer, where the provider prices per operator (see UpstreamOffer.byOperator). */
  byOperator?: ReadonlyMap<string, Omit<ProviderOffer, 'provider' | 'byOperator'>>;
}

export interface RoutingContext {
  health: ProviderHealth;
  /** Pool names in configured priority order. */
  priority: readonly string[];
  pins: RoutingPins;
}

/** `service:COUNTRY`, `service` or `COUNTRY` → provider name; the most specific wins. */
export type RoutingPins = ReadonlyMap<string, string>;

/** Delivery rates closer than this count as equal, so that noise does not outweigh price. */
const DELIVERY_BAND = 0.05;
/** Average times to code closer than this count as equal. */
const TIME_TO_CODE_BAND_MS = 30_000;

/**
 * Parses `SMS_ROUTING_PINS` ("tg=hero,US=bower,tg:US=hero"), refusing names outside the pool so that a
 * typo stops the start rather than silently routing by score.
 */
export function parseRoutingPins(text: string, providers: readonly string[]): Map<string, string> {
  const pins = new Map<string, string>();
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9]{1,10}(?::[A-Z]{2})?|[A-Z]{2})=([a-z][a-z0-9-]{0,30})$/.exec(part);
    if (!match)
      throw new Error(
        `SMS_ROUTING_PINS: cannot read "${part}" (expected service=provider, COUNTRY=provider or service:COUNTRY=provider)`,
      );
    if (!providers.includes(match[2]!))
      throw new Error(
        `SMS_ROUTING_PINS: "${match[2]}" is not one of SMS_PROVIDERS (${providers.join(', ')})`,
      );
    pins.set(match[1]!, match[2]!);
  }
  return pins;
}

function pinFor(pins: RoutingPins, service: string, countryId: string): string | undefined {
  return pins.get(`${service}:${countryId}`) ?? pins.get(service) ?? pins.get(countryId);
}

/**
 * The offers of a (country, service) best first, the order purchases try them in. Compared in turn:
 *  1. providers in cool-down, or that answered "no numbers" for this pair in the last minute, go last;
 *  2. a pin for the service or country puts its provider first (health still outranks a pin);
 *  3. delivery rate (share of orders that got a code), in 5-point bands, higher first;
 *  4. average time to code, in 30-second bands, shorter first (when both providers have one);
 *  5. our sale price, lower first;
 *  6. recent error rate, lower first;
 *  7. the configured order of SMS_PROVIDERS.
 * Offers without stock are left out.
 */
export function rankOffers(
  offers: readonly ProviderOffer[],
  service: string,
  countryId: string,
  { health, priority, pins }: RoutingContext,
): ProviderOffer[] {
  const pinned = pinFor(pins, service, countryId);
  const facts = new Map(
    offers.map((offer) => {
      const delivery = health.delivery(offer.provider, service, countryId);
      return [
        offer.provider,
        {
          pinned: offer.provider === pinned ? 0 : 1,
          sidelined:
            health.isCooling(offer.provider) || health.recentlyOutOf(offer.provider, service, countryId)
              ? 1
              : 0,
          deliveryBand: Math.floor(delivery.rate / DELIVERY_BAND),
          timeBand:
            delivery.timeToCodeMs === null ? null : Math.floor(delivery.timeToCodeMs / TIME_TO_CODE_BAND_MS),
          errorRate: health.errorRate(offer.provider),
          priority: priority.indexOf(offer.provider),
        },
      ];
    }),
  );
  return offers
    .filter((offer) => offer.stock > 0)
    .sort((left, right) => {
      const a = facts.get(left.provider)!;
      const b = facts.get(right.provider)!;
      const time = a.timeBand !== null && b.timeBand !== null ? a.timeBand - b.timeBand : 0;
      return (
        a.sidelined - b.sidelined ||
        a.pinned - b.pinned ||
        b.deliveryBand - a.deliveryBand ||
        time ||
        left.priceCents - right.priceCents ||
        a.errorRate - b.errorRate ||
        a.priority - b.priority
      );
    });
}

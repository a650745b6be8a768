import {
  countryById,
  LONG_TERM_DEFAULT_HOURS,
  type RentService,
  rentMessages,
  rentServiceByKey,
  rentServices,
} from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import { CallBudget } from '../../../lib/call-budget';
import type { Clock } from '../../../lib/clock';
import { fail } from '../../../lib/errors';
import type { ProviderPool, RentMember } from '../../../providers/sms/pool';
import { type ProviderOffer, rankOffers } from '../../../providers/sms/routing';
import type { UpstreamRentCatalog } from '../../../providers/sms/types';
import { markupFor, salePriceCents } from '../../catalog/pricing';
import type { PricingRulesStore } from '../../catalog/pricing-rules';
import { asUserFailure } from '../upstream-failure';

/** How long one upstream answer about rent prices is served before it is asked again. */
export const RENT_CATALOG_TTL_MS = 60_000;
/** Answers kept at most; the oldest go first. */
export const RENT_CATALOG_MAX_ENTRIES = 1000;
/**
 * Upstream price reads per minute and provider, all uses together. Past a use's share, a stale answer is
 * served when there is one; otherwise the caller is asked to try again in a moment.
 */
export const RENT_CATALOG_CALLS_PER_MINUTE = 120;
/**
 * Of those, held for renewals (the buyer's renew dialog and renewal, and the automatic renewals) and for
 * rent purchases: browsing, which anyone can drive with any period, can never take them.
 */
export const RENT_CATALOG_RENEWAL_CALLS = 30;
export const RENT_CATALOG_PURCHASE_CALLS = 30;
/** Uncached price reads one viewer (an account or an API key) may cause per minute while browsing. */
export const RENT_CATALOG_BROWSE_CALLS_PER_VIEWER = 10;

/**
 * Who a price read is for: a purchase, a renewal (the buyer's or an automatic one), or someone browsing,
 * named so that one viewer's reads cannot use up everyone's.
 */
export type CatalogUse = 'purchase' | 'renewal' | { browsing: string };

export interface RentOffer {
  key: string;
  name: string;
  icon: string | null;
  /** The canonical service code the option is rented for upstream. */
  service: string;
  priceCents: number;
  stock: number;
  /** What the provider routing ranks first charges for the period, in its currency. */
  upstreamCost: number;
  /** Each provider's offer for the period, best first: the order a rent tries them in. */
  providerOffers: ProviderOffer[];
}

/** A provider a rent may be placed with, and the most it may charge (its listed cost). */
export interface RentCandidate {
  provider: string;
  upstreamCost: number;
}

export interface RentQuote {
  countryId: string;
  option: RentService;
  hours: number;
  priceCents: number;
  /**
   * The providers that sell the rent at a cost the price covers, in routing order; the first one's cost is
   * the quote's. A rent tries them in turn, at the same price to the user.
   */
  candidates: RentCandidate[];
}

export interface RenewalQuote {
  hours: number;
  priceCents: number;
  upstreamCost: number;
}

interface ProviderRentCatalogDeps {
  member: RentMember;
  pricing: PricingRulesStore;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** One provider's rent offer for a period, before the providers are merged. */
type ProviderRentOffer = Omit<RentOffer, 'providerOffers'> & { costCents: number };

interface Entry<T> {
  fetchedAtMs: number;
  value: Promise<T>;
}

/**
 * One provider's rent countries, services and prices. Rent prices depend on the period, so they are read
 * from the upstream per (country, hours) and kept for a minute; concurrent readers of one key share one
 * call, and all reads together stay within RENT_CATALOG_CALLS_PER_MINUTE (per provider).
 */
function createProviderRentCatalog({ member, pricing, clock, log }: ProviderRentCatalogDeps) {
  const { rents: provider, usdRate } = member;
  const entries = new Map<string, Entry<unknown>>();
  const budget = new CallBudget(RENT_CATALOG_CALLS_PER_MINUTE, clock);
  budget.claim('renewal', RENT_CATALOG_RENEWAL_CALLS, Number.POSITIVE_INFINITY);
  budget.claim('purchase', RENT_CATALOG_PURCHASE_CALLS, Number.POSITIVE_INFINITY);
  const viewers = new Map<string, CallBudget>();

  /** Whether `use` may make one more upstream read now. */
  function mayRead(use: CatalogUse): boolean {
    if (typeof use === 'string') return budget.tryTake(use);
    let own = viewers.get(use.browsing);
    if (!own) {
      // Viewers whose minute is over are forgotten: the map holds the last minute's browsers only.
      if (viewers.size >= RENT_CATALOG_MAX_ENTRIES)
        for (const [viewer, spent] of viewers)
          if (spent.remaining() === spent.perMinute) viewers.delete(viewer);
      own = new CallBudget(RENT_CATALOG_BROWSE_CALLS_PER_VIEWER, clock);
      viewers.set(use.browsing, own);
    }
    return own.remaining() > 0 && budget.tryTake('browse') && own.tryTake();
  }

  function cached<T>(key: string, use: CatalogUse, load: () => Promise<T>): Promise<T> {
    const nowMs = clock.now().getTime();
    const entry = entries.get(key) as Entry<T> | undefined;
    if (entry && nowMs - entry.fetchedAtMs < RENT_CATALOG_TTL_MS) return entry.value;
    if (!mayRead(use)) {
      if (entry) return entry.value;
      log.warn({ key, use }, 'rent catalog read budget exhausted');
      return Promise.reject(fail('rent_catalog_busy'));
    }
    const value: Promise<T> = load().catch((error: unknown) => {
      // A failed read is not kept: the next visitor asks again (within the budget).
      if (entries.get(key)?.value === value) entries.delete(key);
      throw asUserFailure(error);
    });
    entries.delete(key);
    entries.set(key, { fetchedAtMs: nowMs, value });
    if (entries.size > RENT_CATALOG_MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return value;
  }

  function priceCents(cost: number, service: string, countryId: string): number {
    return salePriceCents(cost, usdRate, markupFor(pricing.current(), service, countryId));
  }

  async function countries(use: CatalogUse): Promise<string[]> {
    // The upstream lists the rent countries with any period's prices; the default period's answer is the one
    // the rent page asks for first anyway.
    const catalog = await cached<UpstreamRentCatalog>(`*:${LONG_TERM_DEFAULT_HOURS}`, use, () =>
      provider.getRentCatalog({ hours: LONG_TERM_DEFAULT_HOURS }),
    );
    return catalog.countries.filter((countryId) => countryById(countryId) !== undefined);
  }

  async function offers(countryId: string, hours: number, use: CatalogUse): Promise<ProviderRentOffer[]> {
    const catalog = await cached<UpstreamRentCatalog>(`${countryId}:${hours}`, use, () =>
      provider.getRentCatalog({ hours, countryId }),
    );
    // The catalogue's order (most popular first); several options may rent the same upstream service.
    return rentServices.flatMap((option) => {
      const offer = catalog.services[option.service];
      if (!offer || !(offer.cost > 0)) return [];
      return [
        {
          key: option.key,
          name: option.name,
          icon: option.icon,
          service: option.service,
          priceCents: priceCents(offer.cost, option.service, countryId),
          costCents: salePriceCents(offer.cost, usdRate, 0),
          stock: Math.max(0, Math.floor(offer.stock)),
          upstreamCost: offer.cost,
        },
      ];
    });
  }

  return {
    countries,
    offers,

    /**
     * The price of extending a rent by `hours`: the upstream's continue-rent price with our markup. The
     * dialog's quote and the renewal a moment later read the same cached answer, so they agree.
     */
    async renewalQuote(
      rent: { providerRentId: string; service: string; countryId: string },
      hours: number,
    ): Promise<RenewalQuote> {
      const cost = await cached<number>(`renew:${rent.providerRentId}:${hours}`, 'renewal', () =>
        provider.getRentExtensionPrice(rent.providerRentId, hours),
      );
      return { hours, priceCents: priceCents(cost, rent.service, rent.countryId), upstreamCost: cost };
    },

    /** Forgets a rent's renewal prices (after it was renewed, the next period is priced anew). */
    forgetRenewalQuotes(providerRentId: string): void {
      for (const key of entries.keys()) if (key.startsWith(`renew:${providerRentId}:`)) entries.delete(key);
    },
  };
}

interface RentCatalogDeps {
  providers: ProviderPool;
  pricing: PricingRulesStore;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The rent catalog users see: the offers of every provider that rents numbers, merged per country and
 * service as the one-time catalog merges them. The price is that of the offer routing ranks first, the stock
 * the sum; a provider whose prices cannot be read is left out while another answers.
 */
export function createRentCatalog({ providers, pricing, clock, log }: RentCatalogDeps) {
  const members = providers.rentMembers();
  if (members.length === 0) throw new Error('no SMS provider in SMS_PROVIDERS rents numbers');
  const byProvider = new Map(
    members.map((member) => [member.name, createProviderRentCatalog({ member, pricing, clock, log })]),
  );

  function catalogOf(provider: string) {
    const catalog = byProvider.get(provider);
    if (!catalog) throw new Error(`SMS provider "${provider}" does not rent numbers`);
    return catalog;
  }

  /** Each provider's answer; fails only when every provider failed, with the first one's error. */
  async function fromEveryProvider<T>(
    read: (provider: string, catalog: ReturnType<typeof createProviderRentCatalog>) => Promise<T>,
  ): Promise<Array<{ provider: string; value: T }>> {
    // A provider out of routing rents nothing (the console's switch).
    const asked = [...byProvider].filter(([provider]) => providers.inRouting(provider));
    if (asked.length === 0) return [];
    const settled = await Promise.allSettled(
      asked.map(async ([provider, catalog]) => ({ provider, value: await read(provider, catalog) })),
    );
    const answered = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    if (answered.length === 0) throw failures[0];
    for (const reason of failures) log.warn({ err: reason }, 'a provider’s rent prices could not be read');
    return answered;
  }

  async function countriesByProvider(use: CatalogUse): Promise<Array<{ provider: string; value: string[] }>> {
    return fromEveryProvider((_, catalog) => catalog.countries(use));
  }

  async function offers(countryId: string, hours: number, use: CatalogUse): Promise<RentOffer[]> {
    const selling = (await countriesByProvider(use))
      .filter(({ value }) => value.includes(countryId))
      .map(({ provider }) => provider);
    if (selling.length === 0) throw fail('unknown_country', rentMessages.unknownCountry);
    const answers = await fromEveryProvider(async (provider, catalog) =>
      selling.includes(provider) ? catalog.offers(countryId, hours, use) : [],
    );
    const routing = providers.routing();
    return rentServices.flatMap((option) => {
      const matches = answers.flatMap(({ provider, value }) =>
        value.filter((offer) => offer.key === option.key).map((offer) => ({ provider, offer })),
      );
      const first = matches[0]?.offer;
      if (!first) return [];
      const providerOffers: ProviderOffer[] = matches.map(({ provider, offer }) => ({
        provider,
        upstreamCost: offer.upstreamCost,
        costCents: offer.costCents,
        priceCents: offer.priceCents,
        stock: offer.stock,
      }));
      const ranked = rankOffers(providerOffers, option.service, countryId, routing);
      // Out of stock everywhere: still listed (the page shows it as such), at the cheapest price.
      const best = ranked[0] ?? providerOffers.toSorted((a, b) => a.priceCents - b.priceCents)[0]!;
      return [
        {
          key: first.key,
          name: first.name,
          icon: first.icon,
          service: first.service,
          priceCents: best.priceCents,
          stock: providerOffers.reduce((sum, offer) => sum + offer.stock, 0),
          upstreamCost: best.upstreamCost,
          providerOffers: ranked,
        },
      ];
    });
  }

  return {
    /** The rent countries, in the first provider's order, then any the others add. */
    async countries(use: CatalogUse): Promise<string[]> {
      const lists = await countriesByProvider(use);
      return [...new Set(lists.flatMap(({ value }) => value))];
    },

    offers,

    /**
     * The price to charge now for a rent, from the providers' prices and our markup, never from the client:
     * that of the offer routing picks. The other providers whose cost the price covers are the candidates a
     * rent moves on to when one refuses, each with its own listed cost as the ceiling.
     */
    async quote(countryId: string, serviceKey: string, hours: number): Promise<RentQuote> {
      const option = rentServiceByKey(serviceKey);
      if (!option) throw fail('unknown_service', rentMessages.unknownService);
      const offer = (await offers(countryId, hours, 'purchase')).find((entry) => entry.key === serviceKey);
      if (!offer) throw fail('service_not_offered');
      const candidates = offer.providerOffers
        .filter((candidate) => candidate.costCents <= offer.priceCents)
        .map((candidate) => ({ provider: candidate.provider, upstreamCost: candidate.upstreamCost }));
      // The listing counts every provider's numbers; one routing skips (out of balance) sells none.
      if (offer.stock <= 0 || candidates.length === 0) throw fail('out_of_stock', rentMessages.outOfStock);
      return { countryId, option, hours, priceCents: offer.priceCents, candidates };
    },

    /** The price of extending a rent: a renewal stays at the rent's provider, priced by it. */
    renewalQuote(
      rent: { provider: string; providerRentId: string; service: string; countryId: string },
      hours: number,
    ): Promise<RenewalQuote> {
      return catalogOf(rent.provider).renewalQuote(rent, hours);
    },

    forgetRenewalQuotes(rent: { provider: string; providerRentId: string }): void {
      catalogOf(rent.provider).forgetRenewalQuotes(rent.providerRentId);
    },
  };
}

export type RentCatalog = ReturnType<typeof createRentCatalog>;

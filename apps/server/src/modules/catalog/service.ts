import { isDeepStrictEqual } from 'node:util';
import { countryById, type DeliveryFigures, serviceByCode } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import type { ProviderPool } from '../../providers/sms/pool';
import { type ProviderOffer, rankOffers } from '../../providers/sms/routing';
import type { UpstreamCatalog } from '../../providers/sms/types';
import { operatorName } from './operator-names';
import { markupFor, salePriceCents } from './pricing';
import type { PricingRulesStore } from './pricing-rules';
import type { CatalogRepository } from './repository';

export const ANY_OPERATOR = 'any';

export interface CatalogCountry {
  /** ISO 3166-1 alpha-2, upper case: our canonical country id. */
  id: string;
  name: string;
  /** Lower-case ISO code, the flag's name. */
  code: string;
  dialCode: string;
  /** `any` first, then the upstream's operators. */
  operators: Array<{ key: string; name: string }>;
}

export interface CatalogOffer {
  service: string;
  name: string;
  /** The price of the offer routing would use when the catalog was built. */
  priceCents: number;
  /** The sum over the providers. */
  stock: number;
  /** Each provider's offer; users never see them. */
  providerOffers: ProviderOffer[];
}

/** A provider a purchase may go to, with the ceiling it is asked to keep to, in its currency. */
export interface QuoteCandidate {
  provider: string;
  upstreamCost: number;
}

export interface Quote {
  countryId: string;
  operator: string;
  service: string;
  priceCents: number;
  /** Where to buy, best first: the offer the price comes from, then every other whose cost the price covers. */
  candidates: QuoteCandidate[];
}

interface CatalogView {
  fetchedAt: Date;
  /** Moves with every build (a refresh or new prices): answers cached under it are the current ones. */
  version: number;
  countries: CatalogCountry[];
  countriesById: Map<string, CatalogCountry>;
  offersByCountry: Map<string, Map<string, CatalogOffer>>;
  /** Each country's offers sorted by name, once per refresh rather than on every request. */
  sortedOffersByCountry: Map<string, readonly CatalogOffer[]>;
  /** `country:operator` → that operator's offers, built on first use (most pairs are never asked for). */
  operatorOffers: Map<string, OfferList>;
}

/** A country's offers for one operator: by service, and sorted by name. */
interface OfferList {
  byService: ReadonlyMap<string, CatalogOffer>;
  sorted: readonly CatalogOffer[];
}

/** A row of the shared delivery figures, across providers ('*' operator: every operator). */
export interface DeliveryRow {
  service: string;
  countryId: string;
  operator: string;
  orders: number;
  delivered: number;
  medianTimeToCodeMs: number | null;
}

interface CatalogServiceDeps {
  providers: ProviderPool;
  repository: CatalogRepository;
  /** The markup rules in force (they change when an administrator saves new ones). */
  pricing: PricingRulesStore;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The catalog as users see it: countries with operators, services with our price and the stock, merged
 * over every provider of the pool: one offer per (country, service), its stock the sum, its price that of
 * the offer routing would use. One instance refreshes each provider's catalog and stores it; every
 * instance serves the merge from memory, built from the stored snapshots, so a failing provider leaves
 * its last good catalog in place.
 */
export function createCatalogService({ providers, repository, pricing, clock, log }: CatalogServiceDeps) {
  let view: CatalogView | null = null;
  let builds = 0;
  /** Delivery figures across providers by `service|country|operator` ('*' for any operator). */
  let delivery = new Map<string, NonNullable<DeliveryFigures>>();
  let deliveryVersion = 0;
  /** Each provider's last good catalog. */
  const snapshots = new Map<string, { fetchedAt: Date; data: UpstreamCatalog }>();
  /** Country → the operators each provider lists there: an operator's offer goes to those providers only. */
  let operatorsByCountry = new Map<string, Map<string, ReadonlySet<string>>>();

  function build(): CatalogView {
    const countriesById = new Map<string, CatalogCountry>();
    const operators = new Map<string, Map<string, ReadonlySet<string>>>();
    const offersByCountry = new Map<string, Map<string, CatalogOffer>>();
    for (const member of providers.members) {
      const snapshot = snapshots.get(member.name);
      // A provider out of routing sells nothing: its stock and prices leave the shop until it is back.
      if (!snapshot || !providers.inRouting(member.name)) continue;
      const listed = new Set<string>();
      for (const upstreamCountry of snapshot.data.countries) {
        const known = countryById(upstreamCountry.countryId);
        if (!known) continue;
        listed.add(known.id);
        const byProvider = operators.get(known.id) ?? new Map<string, ReadonlySet<string>>();
        byProvider.set(member.name, new Set(upstreamCountry.operators));
        operators.set(known.id, byProvider);
        const country = countriesById.get(known.id) ?? {
          id: known.id,
          name: known.name,
          code: known.id.toLowerCase(),
          dialCode: known.dialCode,
          operators: [{ key: ANY_OPERATOR, name: operatorName(ANY_OPERATOR) }],
        };
        for (const key of upstreamCountry.operators) {
          if (!country.operators.some((operator) => operator.key === key))
            country.operators.push({ key, name: operatorName(key) });
        }
        countriesById.set(known.id, country);
      }
      for (const offer of snapshot.data.offers) {
        const service = serviceByCode(offer.service);
        if (!service || !listed.has(offer.countryId) || !(offer.cost > 0)) continue;
        let offers = offersByCountry.get(offer.countryId);
        if (!offers) {
          offers = new Map();
          offersByCountry.set(offer.countryId, offers);
        }
        const merged = offers.get(service.code) ?? {
          service: service.code,
          name: service.name,
          priceCents: 0,
          stock: 0,
          providerOffers: [],
        };
        const markupPercent = markupFor(pricing.current(), service.code, offer.countryId);
        const priced = (cost: number, stock: number) => ({
          upstreamCost: cost,
          costCents: salePriceCents(cost, member.usdRate, 0),
          priceCents: salePriceCents(cost, member.usdRate, markupPercent),
          stock: Math.max(0, Math.floor(stock)),
        });
        const providerOffer: ProviderOffer = { provider: member.name, ...priced(offer.cost, offer.stock) };
        if (offer.byOperator)
          providerOffer.byOperator = new Map(
            Object.entries(offer.byOperator)
              .filter(([, entry]) => entry.cost > 0)
              .map(([operator, entry]) => [operator, priced(entry.cost, entry.stock)]),
          );
        merged.stock += providerOffer.stock;
        merged.providerOffers.push(providerOffer);
        offers.set(service.code, merged);
      }
    }
    for (const [countryId, offers] of offersByCountry) {
      for (const offer of offers.values())
        offer.priceCents = listedPrice(offer.providerOffers, offer.service, countryId);
    }
    operatorsByCountry = operators;
    // Countries with nothing to sell at all are left out; services out of stock stay, marked as such.
    const countries = [...countriesById.values()]
      .filter((country) => offersByCountry.has(country.id))
      .sort((a, b) => a.name.localeCompare(b.name));
    const sortedOffersByCountry = new Map(
      [...offersByCountry].map(([countryId, offers]) => [
        countryId,
        [...offers.values()].sort((a, b) => a.name.localeCompare(b.name)),
      ]),
    );
    return {
      // When this merge was built.
      fetchedAt: clock.now(),
      version: ++builds,
      countries,
      countriesById: new Map(countries.map((c) => [c.id, c])),
      offersByCountry,
      sortedOffersByCountry,
      operatorOffers: new Map(),
    };
  }

  /**
   * A country's offers for one operator: only the providers that list it, each at that operator's own price
   * where it prices per operator; the merge rules of `any` otherwise.
   */
  function offersFor(catalog: CatalogView, countryId: string, operator: string): OfferList {
    const all = catalog.offersByCountry.get(countryId) ?? new Map<string, CatalogOffer>();
    if (operator === ANY_OPERATOR)
      return { byService: all, sorted: catalog.sortedOffersByCountry.get(countryId) ?? [] };
    const key = `${countryId}:${operator}`;
    const known = catalog.operatorOffers.get(key);
    if (known) return known;
    const byService = new Map<string, CatalogOffer>();
    for (const offer of all.values()) {
      const providerOffers = offer.providerOffers
        .filter((candidate) => sellsOperator(candidate.provider, countryId, operator))
        .flatMap((candidate): ProviderOffer[] => {
          if (!candidate.byOperator) return [candidate];
          const own = candidate.byOperator.get(operator);
          return own ? [{ provider: candidate.provider, ...own }] : [];
        });
      if (providerOffers.length === 0) continue;
      byService.set(offer.service, {
        ...offer,
        priceCents: listedPrice(providerOffers, offer.service, countryId),
        stock: providerOffers.reduce((sum, candidate) => sum + candidate.stock, 0),
        providerOffers,
      });
    }
    const list = {
      byService,
      sorted: [...byService.values()].sort((a, b) => a.name.localeCompare(b.name)),
    };
    catalog.operatorOffers.set(key, list);
    return list;
  }

  /** The price of the offer routing would use; out of stock everywhere, the cheapest (shown as such). */
  function listedPrice(offers: readonly ProviderOffer[], service: string, countryId: string): number {
    const best = rankOffers(offers, service, countryId, providers.routing())[0];
    return best?.priceCents ?? Math.min(...offers.map((candidate) => candidate.priceCents));
  }

  function assertSells(catalog: CatalogView, countryId: string, operator: string): void {
    const country = catalog.countriesById.get(countryId);
    if (!country) throw fail('unknown_country');
    if (!country.operators.some((entry) => entry.key === operator)) {
      throw fail('unknown_operator');
    }
  }

  function current(): CatalogView {
    if (!view) throw fail('catalog_not_loaded');
    return view;
  }

  /** The providers that can sell this operator in this country (all of the country's for `any`). */
  function sellsOperator(provider: string, countryId: string, operator: string): boolean {
    const listed = operatorsByCountry.get(countryId)?.get(provider);
    return listed !== undefined && (operator === ANY_OPERATOR || listed.has(operator));
  }

  return {
    /**
     * Fetches every provider's catalog and stores each snapshot that changed; a provider that fails keeps
     * its last good one. The catalog is built again only when one changed: a supplier's prices and stock
     * mostly stand still between refreshes, and each minute stored a megabyte of the same JSON and priced
     * every offer again; on PGlite each such write also grew the memory it keeps (ADR 0036). True when at
     * least one provider answered.
     */
    async refreshFromUpstream(): Promise<boolean> {
      const results = await Promise.all(
        providers.members.map(async (member): Promise<'changed' | 'unchanged' | 'failed'> => {
          try {
            const data = await member.provider.getCatalog();
            // Compared by value, not as text: one stored as jsonb before migration 0040 comes back with its
            // keys reordered.
            const kept = snapshots.get(member.name);
            if (kept && isDeepStrictEqual(kept.data, data)) return 'unchanged';
            const fetchedAt = clock.now();
            await repository.save(member.name, fetchedAt, data);
            snapshots.set(member.name, { fetchedAt, data });
            return 'changed';
          } catch (error) {
            log.warn(
              { err: error, provider: member.name },
              'catalog refresh failed; keeping the last good catalog',
            );
            return 'failed';
          }
        }),
      );
      if (results.includes('changed')) view = build();
      return results.some((result) => result !== 'failed');
    },

    /** Prices the loaded catalog again: after the markup rules changed. */
    reprice(): void {
      if (view) view = build();
    },

    /** Picks up snapshots another instance stored, when newer than ours. */
    async loadFromStore(): Promise<boolean> {
      let changed = false;
      for (const member of providers.members) {
        const storedAt = await repository.fetchedAt(member.name);
        const ours = snapshots.get(member.name);
        if (!storedAt || (ours && storedAt.getTime() <= ours.fetchedAt.getTime())) continue;
        const snapshot = await repository.load(member.name);
        if (!snapshot) continue;
        snapshots.set(member.name, snapshot);
        changed = true;
      }
      if (changed) view = build();
      return changed;
    },

    isLoaded: () => view !== null,
    fetchedAt: () => view?.fetchedAt,
    /**
     * Names the catalog as built now, with its delivery figures; it changes with every build and every new
     * set of figures, across restarts too (ETags use it).
     */
    version: () =>
      view ? `${view.fetchedAt.getTime().toString(36)}.${view.version}.${deliveryVersion}` : '0',

    /** Takes the delivery figures across providers (every instance reloads them each minute). */
    useDeliveryFigures(rows: readonly DeliveryRow[]): void {
      delivery = new Map(
        rows.map((row) => [
          `${row.service}|${row.countryId}|${row.operator}`,
          {
            orders: row.orders,
            delivered: row.delivered,
            median_seconds:
              row.medianTimeToCodeMs === null ? null : Math.round(row.medianTimeToCodeMs / 1000),
          },
        ]),
      );
      deliveryVersion += 1;
    },

    /** SimCode's own delivery of an offer over the window; null when no order of it settled. */
    deliveryOf(service: string, countryId: string, operator: string = ANY_OPERATOR): DeliveryFigures {
      const key = operator === ANY_OPERATOR ? '*' : operator;
      return delivery.get(`${service}|${countryId}|${key}`) ?? null;
    },

    /** Every country that sells a service (any operator), in the catalog's country order. */
    countriesSelling(service: string): { country: CatalogCountry; offer: CatalogOffer }[] {
      const catalog = current();
      return catalog.countries.flatMap((country) => {
        const offer = catalog.offersByCountry.get(country.id)?.get(service);
        return offer ? [{ country, offer }] : [];
      });
    },

    countries(): CatalogCountry[] {
      return current().countries;
    },

    /**
     * The country's services for an operator: those of the providers that list it, priced per operator
     * where a provider prices so (5sim); the SMS-Activate family's prices do not depend on it.
     */
    services(countryId: string, operator: string = ANY_OPERATOR): readonly CatalogOffer[] {
      const catalog = current();
      assertSells(catalog, countryId, operator);
      return offersFor(catalog, countryId, operator).sorted;
    },

    /**
     * The price to charge now for one activation, from our catalog only, never from the client: that of
     * the offer routing picks now. The other providers whose cost the price covers are the failover
     * candidates, in routing order; a provider never gets a ceiling above its own listed cost.
     */
    quote(countryId: string, operator: string, service: string): Quote {
      const catalog = current();
      assertSells(catalog, countryId, operator);
      const offer = offersFor(catalog, countryId, operator).byService.get(service);
      if (!offer) {
        // Sold in the country, not through this operator: the user can pick another.
        if (catalog.offersByCountry.get(countryId)?.has(service)) throw fail('out_of_stock');
        throw fail('unknown_service');
      }
      const ranked = rankOffers(offer.providerOffers, service, countryId, providers.routing());
      const best = ranked[0];
      if (!best) throw fail('out_of_stock');
      return {
        countryId,
        operator,
        service,
        priceCents: best.priceCents,
        candidates: ranked
          .filter((candidate) => candidate.costCents <= best.priceCents)
          .map((candidate) => ({ provider: candidate.provider, upstreamCost: candidate.upstreamCost })),
      };
    },

    countryCount(): number {
      return view?.countries.length ?? 0;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;

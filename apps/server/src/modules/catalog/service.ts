import { countryById, serviceByCode } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, serviceUnavailable } from '../../lib/errors';
import type { ProviderPool } from '../../providers/sms/pool';
import { type ProviderOffer, rankOffers } from '../../providers/sms/routing';
import type { UpstreamCatalog } from '../../providers/sms/types';
import { operatorName } from './operator-names';
import { type MarkupRules, markupFor, salePriceCents } from './pricing';
import type { CatalogRepository } from './repository';

export const ANY_OPERATOR = 'any';

export const catalogMessages = {
  unknownCountry: 'This country is not available.',
  unknownOperator: 'This operator is not available in the chosen country.',
  unknownService: 'This service is not available in the chosen country.',
  outOfStock: 'No numbers are available for this service right now. Try another operator or country.',
  notLoaded: 'The number catalog is loading. Please try again in a moment.',
} as const;

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
  countries: CatalogCountry[];
  countriesById: Map<string, CatalogCountry>;
  offersByCountry: Map<string, Map<string, CatalogOffer>>;
  /** Each country's offers sorted by name, once per refresh rather than on every request. */
  sortedOffersByCountry: Map<string, readonly CatalogOffer[]>;
}

interface CatalogServiceDeps {
  providers: ProviderPool;
  repository: CatalogRepository;
  markup: MarkupRules;
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
export function createCatalogService({ providers, repository, markup, clock, log }: CatalogServiceDeps) {
  let view: CatalogView | null = null;
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
      if (!snapshot) continue;
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
        const stock = Math.max(0, Math.floor(offer.stock));
        merged.stock += stock;
        merged.providerOffers.push({
          provider: member.name,
          upstreamCost: offer.cost,
          costCents: salePriceCents(offer.cost, member.usdRate, 0),
          priceCents: salePriceCents(
            offer.cost,
            member.usdRate,
            markupFor(markup, service.code, offer.countryId),
          ),
          stock,
        });
        offers.set(service.code, merged);
      }
    }
    for (const [countryId, offers] of offersByCountry) {
      for (const offer of offers.values()) {
        const best = rankOffers(offer.providerOffers, offer.service, countryId, providers.routing())[0];
        // Out of stock everywhere: the cheapest is shown, marked as such.
        offer.priceCents =
          best?.priceCents ?? Math.min(...offer.providerOffers.map((candidate) => candidate.priceCents));
      }
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
      // When this merge was built: answers cached under it change with any provider's snapshot.
      fetchedAt: clock.now(),
      countries,
      countriesById: new Map(countries.map((c) => [c.id, c])),
      offersByCountry,
      sortedOffersByCountry,
    };
  }

  function assertSells(catalog: CatalogView, countryId: string, operator: string): void {
    const country = catalog.countriesById.get(countryId);
    if (!country) throw badRequest(catalogMessages.unknownCountry, 'unknown_country');
    if (!country.operators.some((entry) => entry.key === operator)) {
      throw badRequest(catalogMessages.unknownOperator, 'unknown_operator');
    }
  }

  function current(): CatalogView {
    if (!view) throw serviceUnavailable(catalogMessages.notLoaded, 'catalog_not_loaded');
    return view;
  }

  /** The providers that can sell this operator in this country (all of the country's for `any`). */
  function sellsOperator(provider: string, countryId: string, operator: string): boolean {
    const listed = operatorsByCountry.get(countryId)?.get(provider);
    return listed !== undefined && (operator === ANY_OPERATOR || listed.has(operator));
  }

  return {
    /**
     * Fetches every provider's catalog and stores each snapshot; a provider that fails keeps its last good
     * one. True when at least one provider answered.
     */
    async refreshFromUpstream(): Promise<boolean> {
      const results = await Promise.all(
        providers.members.map(async (member) => {
          try {
            const data = await member.provider.getCatalog();
            const fetchedAt = clock.now();
            await repository.save(member.name, fetchedAt, data);
            snapshots.set(member.name, { fetchedAt, data });
            return true;
          } catch (error) {
            log.warn(
              { err: error, provider: member.name },
              'catalog refresh failed; keeping the last good catalog',
            );
            return false;
          }
        }),
      );
      if (!results.some(Boolean)) return false;
      view = build();
      return true;
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

    countries(): CatalogCountry[] {
      return current().countries;
    },

    /** The country's services for an operator (prices do not depend on it in the SMS-Activate protocol). */
    services(countryId: string, operator: string = ANY_OPERATOR): readonly CatalogOffer[] {
      const catalog = current();
      assertSells(catalog, countryId, operator);
      return catalog.sortedOffersByCountry.get(countryId) ?? [];
    },

    /**
     * The price to charge now for one activation, from our catalog only, never from the client: that of
     * the offer routing picks now. The other providers whose cost the price covers are the failover
     * candidates, in routing order; a provider never gets a ceiling above its own listed cost.
     */
    quote(countryId: string, operator: string, service: string): Quote {
      const catalog = current();
      assertSells(catalog, countryId, operator);
      const offer = catalog.offersByCountry.get(countryId)?.get(service);
      if (!offer) throw badRequest(catalogMessages.unknownService, 'unknown_service');
      const ranked = rankOffers(
        offer.providerOffers.filter((candidate) => sellsOperator(candidate.provider, countryId, operator)),
        service,
        countryId,
        providers.routing(),
      );
      const best = ranked[0];
      if (!best) throw new AppError(409, catalogMessages.outOfStock, 'out_of_stock');
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

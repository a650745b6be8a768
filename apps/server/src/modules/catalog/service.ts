import { countryById, serviceByCode } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, serviceUnavailable } from '../../lib/errors';
import type { SmsProvider, UpstreamCatalog } from '../../providers/sms/types';
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
  priceCents: number;
  stock: number;
  /** What the upstream charges, in its currency: the max price we pass when buying. */
  upstreamCost: number;
}

export interface Quote {
  countryId: string;
  operator: string;
  service: string;
  priceCents: number;
  upstreamCost: number;
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
  provider: SmsProvider;
  repository: CatalogRepository;
  markup: MarkupRules;
  usdRate: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The catalog as users see it: countries with operators, services with our price and the stock. One
 * instance refreshes it from the upstream and stores it; every instance serves it from memory, built from
 * the stored snapshot, so a failing upstream leaves the last good catalog in place.
 */
export function createCatalogService({
  provider,
  repository,
  markup,
  usdRate,
  clock,
  log,
}: CatalogServiceDeps) {
  let view: CatalogView | null = null;

  function build(fetchedAt: Date, data: UpstreamCatalog): CatalogView {
    const countriesById = new Map<string, CatalogCountry>();
    for (const upstreamCountry of data.countries) {
      const known = countryById(upstreamCountry.countryId);
      if (!known) continue;
      countriesById.set(known.id, {
        id: known.id,
        name: known.name,
        code: known.id.toLowerCase(),
        dialCode: known.dialCode,
        operators: [ANY_OPERATOR, ...upstreamCountry.operators].map((key) => ({
          key,
          name: operatorName(key),
        })),
      });
    }
    const offersByCountry = new Map<string, Map<string, CatalogOffer>>();
    for (const offer of data.offers) {
      const service = serviceByCode(offer.service);
      if (!service || !countriesById.has(offer.countryId) || !(offer.cost > 0)) continue;
      let offers = offersByCountry.get(offer.countryId);
      if (!offers) {
        offers = new Map();
        offersByCountry.set(offer.countryId, offers);
      }
      offers.set(service.code, {
        service: service.code,
        name: service.name,
        priceCents: salePriceCents(offer.cost, usdRate, markupFor(markup, service.code, offer.countryId)),
        stock: Math.max(0, Math.floor(offer.stock)),
        upstreamCost: offer.cost,
      });
    }
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
      fetchedAt,
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

  return {
    /** Fetches from the upstream and stores the snapshot; on failure the last good one stays. */
    async refreshFromUpstream(): Promise<boolean> {
      try {
        const data = await provider.getCatalog();
        const fetchedAt = clock.now();
        await repository.save(provider.name, fetchedAt, data);
        view = build(fetchedAt, data);
        return true;
      } catch (error) {
        log.warn({ err: error }, 'catalog refresh failed; keeping the last good catalog');
        return false;
      }
    },

    /** Picks up a snapshot another instance stored, when it is newer than ours. */
    async loadFromStore(): Promise<boolean> {
      const storedAt = await repository.fetchedAt(provider.name);
      if (!storedAt || (view && storedAt.getTime() <= view.fetchedAt.getTime())) return false;
      const snapshot = await repository.load(provider.name);
      if (!snapshot) return false;
      view = build(snapshot.fetchedAt, snapshot.data);
      return true;
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

    /** The price to charge now for one activation, from our catalog only: never from the client. */
    quote(countryId: string, operator: string, service: string): Quote {
      const catalog = current();
      assertSells(catalog, countryId, operator);
      const offer = catalog.offersByCountry.get(countryId)?.get(service);
      if (!offer) throw badRequest(catalogMessages.unknownService, 'unknown_service');
      if (offer.stock <= 0) throw new AppError(409, catalogMessages.outOfStock, 'out_of_stock');
      return { countryId, operator, service, priceCents: offer.priceCents, upstreamCost: offer.upstreamCost };
    },

    countryCount(): number {
      return view?.countries.length ?? 0;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;

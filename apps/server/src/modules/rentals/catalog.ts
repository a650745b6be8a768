import {
  countryById,
  LONG_TERM_DEFAULT_HOURS,
  type RentService,
  rentMessages,
  rentServiceByKey,
  rentServices,
} from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import { CallBudget } from '../../lib/call-budget';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, serviceUnavailable } from '../../lib/errors';
import { type RentProvider, UpstreamError, type UpstreamRentCatalog } from '../../providers/sms/types';
import { upstreamFailure } from '../activations/service';
import { type MarkupRules, markupFor, salePriceCents } from '../catalog/pricing';

/** How long one upstream answer about rent prices is served before it is asked again. */
export const RENT_CATALOG_TTL_MS = 60_000;
/** Answers kept at most; the oldest go first. */
export const RENT_CATALOG_MAX_ENTRIES = 1000;
/**
 * Upstream price reads that people browsing may cause per minute, all users together. Past it, a stale
 * answer is served when there is one; otherwise the user is asked to try again in a moment.
 */
export const RENT_CATALOG_CALLS_PER_MINUTE = 120;

export interface RentOffer {
  key: string;
  name: string;
  icon: string | null;
  /** The canonical service code the option is rented for upstream. */
  service: string;
  priceCents: number;
  stock: number;
  /** What the upstream charges for the period, in its currency. */
  upstreamCost: number;
}

export interface RentQuote {
  countryId: string;
  option: RentService;
  hours: number;
  priceCents: number;
  upstreamCost: number;
}

export interface RenewalQuote {
  hours: number;
  priceCents: number;
  upstreamCost: number;
}

interface RentCatalogDeps {
  provider: RentProvider;
  markup: MarkupRules;
  usdRate: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

interface Entry<T> {
  fetchedAtMs: number;
  value: Promise<T>;
}

function asAppError(error: unknown): unknown {
  return error instanceof UpstreamError ? upstreamFailure(error) : error;
}

/**
 * Rent countries, services and prices as users see them. Rent prices depend on the period, so they are
 * read from the upstream per (country, hours) and kept for a minute; concurrent readers of one key share
 * one call, and all reads together stay within RENT_CATALOG_CALLS_PER_MINUTE.
 */
export function createRentCatalog({ provider, markup, usdRate, clock, log }: RentCatalogDeps) {
  const entries = new Map<string, Entry<unknown>>();
  const budget = new CallBudget(RENT_CATALOG_CALLS_PER_MINUTE, clock);

  function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const nowMs = clock.now().getTime();
    const entry = entries.get(key) as Entry<T> | undefined;
    if (entry && nowMs - entry.fetchedAtMs < RENT_CATALOG_TTL_MS) return entry.value;
    if (!budget.tryTake()) {
      if (entry) return entry.value;
      log.warn({ key }, 'rent catalog read budget exhausted');
      return Promise.reject(serviceUnavailable(rentMessages.catalogBusy, 'rent_catalog_busy'));
    }
    const value: Promise<T> = load().catch((error: unknown) => {
      // A failed read is not kept: the next visitor asks again (within the budget).
      if (entries.get(key)?.value === value) entries.delete(key);
      throw asAppError(error);
    });
    entries.delete(key);
    entries.set(key, { fetchedAtMs: nowMs, value });
    if (entries.size > RENT_CATALOG_MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return value;
  }

  function priceCents(cost: number, service: string, countryId: string): number {
    return salePriceCents(cost, usdRate, markupFor(markup, service, countryId));
  }

  async function countries(): Promise<string[]> {
    // The upstream lists the rent countries with any period's prices; the default period's answer is the one
    // the rent page asks for first anyway.
    const catalog = await cached<UpstreamRentCatalog>(`*:${LONG_TERM_DEFAULT_HOURS}`, () =>
      provider.getRentCatalog({ hours: LONG_TERM_DEFAULT_HOURS }),
    );
    return catalog.countries.filter((countryId) => countryById(countryId) !== undefined);
  }

  async function offers(countryId: string, hours: number): Promise<RentOffer[]> {
    if (!(await countries()).includes(countryId))
      throw badRequest(rentMessages.unknownCountry, 'unknown_country');
    const catalog = await cached<UpstreamRentCatalog>(`${countryId}:${hours}`, () =>
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
          stock: Math.max(0, Math.floor(offer.stock)),
          upstreamCost: offer.cost,
        },
      ];
    });
  }

  return {
    countries,
    offers,

    /** The price to charge now for a rent, from the upstream's prices and our markup: never from the client. */
    async quote(countryId: string, serviceKey: string, hours: number): Promise<RentQuote> {
      const option = rentServiceByKey(serviceKey);
      if (!option) throw badRequest(rentMessages.unknownService, 'unknown_service');
      const offer = (await offers(countryId, hours)).find((entry) => entry.key === serviceKey);
      if (!offer) throw badRequest(rentMessages.serviceNotOffered, 'service_not_offered');
      if (offer.stock <= 0) throw new AppError(409, rentMessages.outOfStock, 'out_of_stock');
      return { countryId, option, hours, priceCents: offer.priceCents, upstreamCost: offer.upstreamCost };
    },

    /**
     * The price of extending a rent by `hours`: the upstream's continue-rent price with our markup. The
     * dialog's quote and the renewal a moment later read the same cached answer, so they agree.
     */
    async renewalQuote(
      rent: { providerRentId: string; service: string; countryId: string },
      hours: number,
    ): Promise<RenewalQuote> {
      const cost = await cached<number>(`renew:${rent.providerRentId}:${hours}`, () =>
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

export type RentCatalog = ReturnType<typeof createRentCatalog>;

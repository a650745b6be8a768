import { type PriceTier, ProtocolRefusal } from '@simcode/sms-activate-protocol';
import type { Clock } from '../clock';
import { accountOf, type SimAccount, usdCents } from './account';
import {
  activationPrice,
  baseRentStock,
  baseStock,
  freePriceTiers,
  rentPrice,
  type SimCountry,
  STOCK_PERIOD_MS,
  simCountry,
} from './catalog';
import type { SimActivation, SimChange, SimState } from './model';
import { generatePhoneNumber } from './phone-numbers';
import { SeededRandom } from './random';

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
const STARTING_BALANCE_USD = 1000;
/** Ids look like a busy provider's, not like 1, 2, 3. */
const FIRST_ACTIVATION_ID = 412_000_001;
const FIRST_RENT_ID = 26_250_001;

export interface SimSettings {
  seed: number;
  smsDelayMinMs: number;
  smsDelayMaxMs: number;
  /** Share of activations that never receive an SMS. */
  noSmsRate: number;
  /** How long after purchase a cancel is refused (EARLY_CANCEL_DENIED); two minutes like real providers. */
  earlyCancelMs: number;
}

function emptyState(): SimState {
  return {
    version: 1,
    nextActivationId: FIRST_ACTIVATION_ID,
    nextRentId: FIRST_RENT_ID,
    balanceUsd: STARTING_BALANCE_USD,
    activations: {},
    rents: {},
    sold: {},
  };
}

export const isLiveActivation = (activation: SimActivation) =>
  activation.status === 'waiting' || activation.status === 'received' || activation.status === 'retry';

/**
 * What activations and rents share: the state, the account, the catalog's offers, the numbers in use, the
 * seeded randomness and the time of the next due event. Time comes from the injected clock only, so tests
 * move it by hand. Its helpers are public for the activation and rent desks, not for the plugins.
 */
export class SimCore {
  state: SimState;
  random: SeededRandom;
  /**
   * Nothing is due before this time, so a tick can return at once: a scan of every activation on every
   * request cost more than the purchases themselves once thousands were live. Whatever schedules
   * something brings it forward (`dueBy`), so a purchase never forces a scan.
   */
  nextDueAtMs = 0;
  /**
   * Numbers in use, kept between purchases: rebuilding it for every purchase made buying cost time in
   * proportion to the numbers live. Null until a purchase needs it, and again after a restore or reset.
   */
  #takenNumbers: Set<string> | null = null;

  constructor(
    readonly settings: SimSettings,
    private readonly clock: Clock,
    /** Called after every change with what changed, so it can be saved before the answer. */
    readonly onChange: (change: SimChange) => void,
  ) {
    this.state = emptyState();
    this.random = new SeededRandom(settings.seed);
  }

  /** Continues from a saved state (the ids go on from where it left off). */
  restore(state: SimState): void {
    this.state = state;
    this.nextDueAtMs = 0;
    this.#takenNumbers = null;
  }

  reseed(): void {
    this.random = new SeededRandom(this.settings.seed);
  }

  reset(): void {
    this.state = emptyState();
    this.nextDueAtMs = 0;
    this.#takenNumbers = null;
    this.reseed();
    this.onChange('reset');
  }

  now(): number {
    return this.clock.now().getTime();
  }

  dueBy(atMs: number): void {
    if (atMs < this.nextDueAtMs) this.nextDueAtMs = atMs;
  }

  /** When an SMS scheduled now arrives. */
  scheduleSms(now: number): number {
    const atMs =
      now +
      this.random.int(
        this.settings.smsDelayMinMs,
        Math.max(this.settings.smsDelayMinMs, this.settings.smsDelayMaxMs),
      );
    this.dueBy(atMs);
    return atMs;
  }

  // Account ---------------------------------------------------------------------------------------------

  /**
   * Every charge and refund moves the balance by whole cents, so the balance stays exactly the start balance
   * less what was charged plus what was returned (floating-point sums of dollars drift).
   */
  moveBalance(deltaCents: number): void {
    this.state.balanceUsd = (usdCents(this.state.balanceUsd) + deltaCents) / 100;
    this.onChange('account');
  }

  /** Refuses a purchase the balance cannot pay, as a provider does (NO_BALANCE). */
  assertCanPay(costUsd: number): void {
    if (usdCents(this.state.balanceUsd) < usdCents(costUsd)) throw new ProtocolRefusal('NO_BALANCE');
  }

  /** Every offer's numbers back in stock (the control API's restock): what was sold this period is forgotten. */
  restock(): void {
    this.state.sold = {};
    this.onChange('account');
  }

  /** Sets the balance (the control API's top-up or drain). */
  setBalance(balanceUsd: number): void {
    this.state.balanceUsd = usdCents(balanceUsd) / 100;
    this.onChange('account');
  }

  account(): SimAccount {
    return accountOf(this.state);
  }

  // Catalog ---------------------------------------------------------------------------------------------

  country(providerId: number): SimCountry {
    const country = simCountry(providerId);
    if (!country) throw new ProtocolRefusal('BAD_COUNTRY');
    return country;
  }

  /** Every price the offer sells at now with the numbers left at it: the listed price first, then dearer ones. */
  priceTiers(country: SimCountry, service: string): PriceTier[] {
    const now = this.now();
    const { seed } = this.settings;
    const listed = {
      priceUsd: activationPrice(seed, country, service, now),
      stock: baseStock(seed, country, service, now),
    };
    return [listed, ...freePriceTiers(seed, country, service, listed.priceUsd, listed.stock)].map(
      (tier, index) => ({
        priceUsd: tier.priceUsd,
        stock: Math.max(0, tier.stock - (this.state.sold[this.soldKey(now, country, service, index)] ?? 0)),
      }),
    );
  }

  /** The listed price and the numbers left at it. */
  offer(country: SimCountry, service: string): { costUsd: number; stock: number } {
    const [listed] = this.priceTiers(country, service);
    return { costUsd: listed!.priceUsd, stock: listed!.stock };
  }

  rentOffer(country: SimCountry, service: string, hours: number): { costUsd: number; stock: number } {
    const rented = Object.values(this.state.rents).filter(
      (rent) => rent.status === 'active' && rent.countryId === country.providerId && rent.service === service,
    ).length;
    return {
      costUsd: rentPrice(this.settings.seed, country, service, hours, this.now()),
      stock: Math.max(0, baseRentStock(this.settings.seed, country, service) - rented),
    };
  }

  /** Tier 0 is the listed price; its key predates the dearer tiers, so a saved state still reads. */
  soldKey(nowMs: number, country: SimCountry, service: string, tier = 0): string {
    const key = `${Math.floor(nowMs / STOCK_PERIOD_MS)}:${country.providerId}:${service}`;
    return tier === 0 ? key : `${key}:${tier}`;
  }

  // Numbers ---------------------------------------------------------------------------------------------

  /** `any`, nothing, or a comma-separated list the number may come from. */
  operator(country: SimCountry, requested: string | undefined): string {
    const wanted = (requested ?? '')
      .split(',')
      .map((key) => key.trim().toLowerCase())
      .filter((key) => key !== '');
    if (wanted.length === 0 || wanted.includes('any')) {
      return country.operators.length > 0 ? this.random.pick(country.operators) : 'any';
    }
    const known = wanted.filter((key) => country.operators.includes(key));
    if (known.length === 0) throw new ProtocolRefusal('WRONG_OPERATOR');
    return this.random.pick(known);
  }

  /** A number of the country nobody holds now, neither as a live activation nor as a rent. */
  freshNumber(country: SimCountry): string {
    this.#takenNumbers ??= new Set([
      ...Object.values(this.state.activations)
        .filter(isLiveActivation)
        .map((activation) => activation.phoneNumber),
      ...Object.values(this.state.rents)
        .filter((rent) => rent.status === 'active')
        .map((rent) => rent.phoneNumber),
    ]);
    for (;;) {
      const number = generatePhoneNumber(country.iso, country.dialCode, this.random);
      if (!this.#takenNumbers.has(number)) {
        this.#takenNumbers.add(number);
        return number;
      }
    }
  }

  /** A closed activation or rent gives its number back for the next purchase. */
  releaseNumber(phoneNumber: string): void {
    this.#takenNumbers?.delete(phoneNumber);
  }
}

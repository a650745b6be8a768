import { formatUsd, type PriceTier, ProtocolRefusal } from '@simcode/sms-activate-protocol';
import type { Clock } from '../clock';
import {
  activationPrice,
  baseRentStock,
  baseStock,
  freePriceTiers,
  MAX_RENT_HOURS,
  MIN_EXTENSION_HOURS,
  MIN_RENT_HOURS,
  rentPrice,
  SIM_RENT_SERVICES,
  SIM_SERVICES,
  type SimCountry,
  STOCK_PERIOD_MS,
  simCountry,
} from './catalog';
import { extractCode, type GeneratedSms, rentSms, verificationSms } from './messages';
import type { SimActivation, SimChange, SimRent, SimSms, SimState } from './model';
import { generatePhoneNumber } from './phone-numbers';
import { SeededRandom } from './random';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const ACTIVATION_LIFETIME_MS = 20 * MINUTE_MS;
const RENT_CANCEL_WINDOW_MS = 20 * MINUTE_MS;
/** Gap between two SMS on a rented number after the first one. */
const RENT_SMS_GAP_MIN_MS = 5 * MINUTE_MS;
const RENT_SMS_GAP_MAX_MS = 2 * HOUR_MS;
/**
 * Closed orders are kept this long for getStatus / getRentStatus / getHistory, then forgotten: two days, so
 * a customer's nightly reconciliation of yesterday still finds every activation of it in the history.
 */
const CLOSED_ACTIVATION_RETENTION_MS = 48 * HOUR_MS;
const CLOSED_RENT_RETENTION_MS = 7 * 24 * HOUR_MS;
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

export type Delivery =
  | { type: 'activation'; activation: SimActivation; sms: SimSms }
  | { type: 'rent'; rent: SimRent; sms: SimSms };

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

/** Dollars as whole cents: every price the simulator charges is a whole number of cents. */
export const usdCents = (usd: number) => Math.round(usd * 100);

/** One order of the account: what it was charged and what of it was given back, in cents. */
export interface SimAccountEntry {
  kind: 'activation' | 'rent';
  id: string;
  boughtAtMs: number;
  chargedCents: number;
  returnedCents: number;
}

/** The simulator's account of the key it serves: the balance and every retained order's charge and refund. */
export interface SimAccount {
  balanceCents: number;
  chargedCents: number;
  returnedCents: number;
  orders: SimAccountEntry[];
}

const isLiveActivation = (activation: SimActivation) =>
  activation.status === 'waiting' || activation.status === 'received' || activation.status === 'retry';

function lastCode(activation: SimActivation): string | null {
  for (let index = activation.sms.length - 1; index >= 0; index--) {
    const code = activation.sms[index]!.code;
    if (code !== null) return code;
  }
  return null;
}

/**
 * The simulated provider: catalog, activations and rents with the life cycle of docs/protocols.md A.5/A.6.
 * Time comes from the injected clock only, so tests move it by hand.
 */
export class SimulatorEngine {
  state: SimState;
  #random: SeededRandom;

  constructor(
    private readonly settings: SimSettings,
    private readonly clock: Clock,
    /** Called after every change with what changed, so it can be saved before the answer. */
    private readonly onChange: (change: SimChange) => void,
  ) {
    this.state = emptyState();
    this.#random = new SeededRandom(settings.seed);
  }

  /** Continues from a saved state (the ids go on from where it left off). */
  restore(state: SimState): void {
    this.state = state;
    this.#nextDueAtMs = 0;
    this.#takenNumbers = null;
  }

  reseed(): void {
    this.#random = new SeededRandom(this.settings.seed);
  }

  reset(): void {
    this.state = emptyState();
    this.#nextDueAtMs = 0;
    this.#takenNumbers = null;
    this.reseed();
    this.onChange('reset');
  }

  /**
   * Every charge and refund moves the balance by whole cents, so the balance stays exactly the start balance
   * less what was charged plus what was returned (floating-point sums of dollars drift).
   */
  #moveBalance(deltaCents: number): void {
    this.state.balanceUsd = (usdCents(this.state.balanceUsd) + deltaCents) / 100;
    this.onChange('account');
  }

  /** Refuses a purchase the balance cannot pay, as a provider does (NO_BALANCE). */
  #assertCanPay(costUsd: number): void {
    if (usdCents(this.state.balanceUsd) < usdCents(costUsd)) throw new ProtocolRefusal('NO_BALANCE');
  }

  /** Sets the balance (the control API's top-up or drain). */
  setBalance(balanceUsd: number): void {
    this.state.balanceUsd = usdCents(balanceUsd) / 100;
    this.onChange('account');
  }

  /**
   * What the simulator charged and returned for every order it still keeps (closed activations for two
   * days, rents for a week): an activation or rent is charged its cost, and returned all of it when it was
   * cancelled or refunded at the end of its lifetime; a finished one keeps its charge.
   */
  account(): SimAccount {
    const orders: SimAccountEntry[] = [
      ...Object.values(this.state.activations).map((activation) => {
        const chargedCents = usdCents(activation.costUsd);
        return {
          kind: 'activation' as const,
          id: activation.id,
          boughtAtMs: activation.createdAtMs,
          chargedCents,
          returnedCents: activation.status === 'cancelled' ? chargedCents : 0,
        };
      }),
      ...Object.values(this.state.rents).map((rent) => {
        const chargedCents = usdCents(rent.costUsd);
        return {
          kind: 'rent' as const,
          id: rent.id,
          boughtAtMs: rent.createdAtMs,
          chargedCents,
          returnedCents: rent.status === 'cancelled' ? chargedCents : 0,
        };
      }),
    ].sort((left, right) => left.boughtAtMs - right.boughtAtMs);
    return {
      balanceCents: usdCents(this.state.balanceUsd),
      chargedCents: orders.reduce((sum, entry) => sum + entry.chargedCents, 0),
      returnedCents: orders.reduce((sum, entry) => sum + entry.returnedCents, 0),
      orders,
    };
  }

  #now(): number {
    return this.clock.now().getTime();
  }

  /** When an SMS scheduled now arrives. */
  #scheduleSms(now: number): number {
    const atMs =
      now +
      this.#random.int(
        this.settings.smsDelayMinMs,
        Math.max(this.settings.smsDelayMinMs, this.settings.smsDelayMaxMs),
      );
    this.#dueBy(atMs);
    return atMs;
  }

  // Catalog ---------------------------------------------------------------------------------------------

  country(providerId: number): SimCountry {
    const country = simCountry(providerId);
    if (!country) throw new ProtocolRefusal('BAD_COUNTRY');
    return country;
  }

  /** Every price the offer sells at now with the numbers left at it: the listed price first, then dearer ones. */
  priceTiers(country: SimCountry, service: string): PriceTier[] {
    const now = this.#now();
    const { seed } = this.settings;
    const listed = {
      priceUsd: activationPrice(seed, country, service, now),
      stock: baseStock(seed, country, service, now),
    };
    return [listed, ...freePriceTiers(seed, country, service, listed.priceUsd, listed.stock)].map(
      (tier, index) => ({
        priceUsd: tier.priceUsd,
        stock: Math.max(0, tier.stock - (this.state.sold[this.#soldKey(now, country, service, index)] ?? 0)),
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
      costUsd: rentPrice(this.settings.seed, country, service, hours, this.#now()),
      stock: Math.max(0, baseRentStock(this.settings.seed, country, service) - rented),
    };
  }

  /** Tier 0 is the listed price; its key predates the dearer tiers, so a saved state still reads. */
  #soldKey(nowMs: number, country: SimCountry, service: string, tier = 0): string {
    const key = `${Math.floor(nowMs / STOCK_PERIOD_MS)}:${country.providerId}:${service}`;
    return tier === 0 ? key : `${key}:${tier}`;
  }

  /** `any`, nothing, or a comma-separated list the number may come from. */
  #operator(country: SimCountry, requested: string | undefined): string {
    const wanted = (requested ?? '')
      .split(',')
      .map((key) => key.trim().toLowerCase())
      .filter((key) => key !== '');
    if (wanted.length === 0 || wanted.includes('any')) {
      return country.operators.length > 0 ? this.#random.pick(country.operators) : 'any';
    }
    const known = wanted.filter((key) => country.operators.includes(key));
    if (known.length === 0) throw new ProtocolRefusal('WRONG_OPERATOR');
    return this.#random.pick(known);
  }

  /** A number of the country nobody holds now, neither as a live activation nor as a rent. */
  /**
   * Numbers in use, kept between purchases: rebuilding it for every purchase made buying cost time in
   * proportion to the numbers live. Dropped (and rebuilt once) when numbers are freed.
   */
  #takenNumbers: Set<string> | null = null;

  #freshNumber(country: SimCountry): string {
    this.#takenNumbers ??= new Set([
      ...Object.values(this.state.activations)
        .filter(isLiveActivation)
        .map((activation) => activation.phoneNumber),
      ...Object.values(this.state.rents)
        .filter((rent) => rent.status === 'active')
        .map((rent) => rent.phoneNumber),
    ]);
    for (;;) {
      const number = generatePhoneNumber(country.iso, country.dialCode, this.#random);
      if (!this.#takenNumbers.has(number)) {
        this.#takenNumbers.add(number);
        return number;
      }
    }
  }

  // Activations -----------------------------------------------------------------------------------------

  buy(request: {
    service: string;
    countryId: number;
    operator?: string;
    maxPriceUsd?: number;
    resellerUserId?: string;
  }): SimActivation {
    if (!SIM_SERVICES.includes(request.service)) throw new ProtocolRefusal('BAD_SERVICE');
    const country = this.country(request.countryId);
    const operator = this.#operator(country, request.operator);
    // Without a ceiling a number sells at the listed price only; with one, at the cheapest price within it
    // that has numbers left (SMS-Activate's Free Price).
    const tiers = this.priceTiers(country, request.service)
      .map((tier, index) => ({ ...tier, index }))
      .slice(0, request.maxPriceUsd === undefined ? 1 : undefined)
      .filter((tier) => tier.stock > 0);
    if (tiers.length === 0) throw new ProtocolRefusal('NO_NUMBERS');
    const tier = tiers.find(
      (candidate) => candidate.priceUsd <= (request.maxPriceUsd ?? Number.POSITIVE_INFINITY),
    );
    if (!tier) throw new ProtocolRefusal('WRONG_MAX_PRICE', formatUsd(tiers[0]!.priceUsd));
    const costUsd = tier.priceUsd;
    this.#assertCanPay(costUsd);
    const now = this.#now();
    const receives = this.#random.next() >= this.settings.noSmsRate;
    const activation: SimActivation = {
      id: String(this.state.nextActivationId),
      phoneNumber: this.#freshNumber(country),
      service: request.service,
      countryId: country.providerId,
      operator,
      costUsd,
      createdAtMs: now,
      expiresAtMs: now + ACTIVATION_LIFETIME_MS,
      status: 'waiting',
      sms: [],
      nextSmsAtMs: receives ? this.#scheduleSms(now) : null,
      closedAtMs: null,
      ...(request.resellerUserId ? { resellerUserId: request.resellerUserId } : {}),
    };
    this.#dueBy(activation.expiresAtMs);
    this.state.nextActivationId += 1 + this.#random.int(0, 40);
    this.state.activations[activation.id] = activation;
    const soldKey = this.#soldKey(now, country, request.service, tier.index);
    this.state.sold[soldKey] = (this.state.sold[soldKey] ?? 0) + 1;
    this.#moveBalance(-usdCents(costUsd));
    this.onChange(`activation:${activation.id}`);
    return activation;
  }

  activation(id: string | undefined): SimActivation {
    const activation = id === undefined ? undefined : this.state.activations[id];
    if (!activation) throw new ProtocolRefusal('NO_ACTIVATION');
    return activation;
  }

  liveActivations(): SimActivation[] {
    return Object.values(this.state.activations)
      .filter(isLiveActivation)
      .sort((left, right) => left.createdAtMs - right.createdAtMs);
  }

  /** Activations bought in [fromMs, toMs], live or closed (closed ones are kept for a day), newest first. */
  activationsBetween(fromMs: number, toMs: number): SimActivation[] {
    return Object.values(this.state.activations)
      .filter((activation) => activation.createdAtMs >= fromMs && activation.createdAtMs <= toMs)
      .sort((left, right) => right.createdAtMs - left.createdAtMs);
  }

  /** getStatus's answer, without the style: the same text in both. */
  statusText(activation: SimActivation): string {
    const code = lastCode(activation);
    switch (activation.status) {
      case 'waiting':
        return 'STATUS_WAIT_CODE';
      case 'retry':
        return `STATUS_WAIT_RETRY:${code ?? ''}`;
      case 'cancelled':
        return 'STATUS_CANCEL';
      // A finished activation keeps answering its code, as SMS-Activate does.
      case 'received':
      case 'finished':
        return `STATUS_OK:${code ?? ''}`;
    }
  }

  /**
   * setStatus: 1 ready, 3 another SMS, 6 finish, 8 cancel (-1 its legacy form). Moves the SMSHub/SMS-Activate
   * rules allow: 3 only once a code arrived, 8 only without one and after the first 2 minutes; 6 any time,
   * as SMS-Activate answers it: a finish without a code ends the number billed, not refunded.
   */
  setStatus(
    id: string | undefined,
    status: number,
  ): 'ACCESS_READY' | 'ACCESS_RETRY_GET' | 'ACCESS_ACTIVATION' | 'ACCESS_CANCEL' {
    const activation = this.activation(id);
    if (!isLiveActivation(activation)) throw new ProtocolRefusal('ACTIVATION_NOT_ACTIVE');
    const now = this.#now();
    const hasCode = activation.sms.length > 0;
    switch (status) {
      case 1:
        if (activation.status !== 'waiting') throw new ProtocolRefusal('BAD_STATUS');
        return 'ACCESS_READY';
      case 3:
        if (!hasCode) throw new ProtocolRefusal('BAD_STATUS');
        if (activation.status !== 'retry') {
          activation.status = 'retry';
          activation.nextSmsAtMs = this.#scheduleSms(now);
          this.onChange(`activation:${activation.id}`);
        }
        return 'ACCESS_RETRY_GET';
      case 6:
        this.#closeActivation(activation, 'finished', now);
        return 'ACCESS_ACTIVATION';
      case -1:
      case 8:
        if (hasCode) throw new ProtocolRefusal('OTP_RECEIVED');
        if (now - activation.createdAtMs < this.settings.earlyCancelMs)
          throw new ProtocolRefusal('EARLY_CANCEL_DENIED');
        this.#closeActivation(activation, 'cancelled', now);
        return 'ACCESS_CANCEL';
      default:
        throw new ProtocolRefusal('BAD_STATUS');
    }
  }

  /** 5sim's ban: the number is given back as a cancel is, and the order remembers it was banned. */
  ban(id: string | undefined): SimActivation {
    this.setStatus(id, 8);
    const activation = this.activation(id);
    activation.banned = true;
    this.onChange(`activation:${activation.id}`);
    return activation;
  }

  #closeActivation(activation: SimActivation, status: 'finished' | 'cancelled', now: number): void {
    this.#takenNumbers?.delete(activation.phoneNumber);
    activation.status = status;
    activation.nextSmsAtMs = null;
    activation.closedAtMs = now;
    this.#dueBy(now + CLOSED_ACTIVATION_RETENTION_MS + 1);
    if (status === 'cancelled') this.#moveBalance(usdCents(activation.costUsd));
    this.onChange(`activation:${activation.id}`);
  }

  #deliverToActivation(activation: SimActivation, generated: GeneratedSms, atMs: number): Delivery {
    const sms: SimSms = { ...generated, receivedAtMs: atMs };
    activation.sms.push(sms);
    activation.status = 'received';
    activation.nextSmsAtMs = null;
    this.onChange(`activation:${activation.id}`);
    return { type: 'activation', activation, sms };
  }

  /** The control API's "SMS now": text and code as given, or made up like a real one. */
  injectActivationSms(id: string, text?: string, code?: string): Delivery {
    const activation = this.activation(id);
    if (!isLiveActivation(activation)) throw new ProtocolRefusal('ACTIVATION_NOT_ACTIVE');
    const generated = verificationSms(activation.service, this.#random, code);
    const sms = text === undefined ? generated : { ...generated, text, code: code ?? extractCode(text) };
    return this.#deliverToActivation(activation, sms, this.#now());
  }

  // Rents -----------------------------------------------------------------------------------------------

  rentCatalog(countryId: number, hours: number): Array<{ service: string; costUsd: number; stock: number }> {
    assertRentHours(hours, MIN_RENT_HOURS);
    const country = this.#rentCountry(countryId);
    return SIM_RENT_SERVICES.map((service) => ({ service, ...this.rentOffer(country, service, hours) }));
  }

  #rentCountry(countryId: number): SimCountry {
    const country = simCountry(countryId);
    if (!country?.rentSupported) throw new ProtocolRefusal('WRONG_COUNTRY');
    return country;
  }

  rent(request: {
    service: string;
    countryId: number;
    operator?: string;
    hours: number;
    webhookUrl?: string;
  }): SimRent {
    if (!SIM_RENT_SERVICES.includes(request.service)) throw new ProtocolRefusal('BAD_SERVICE');
    assertRentHours(request.hours, MIN_RENT_HOURS);
    const country = this.#rentCountry(request.countryId);
    const operator = this.#operator(country, request.operator);
    const { costUsd, stock } = this.rentOffer(country, request.service, request.hours);
    if (stock <= 0) throw new ProtocolRefusal('NO_NUMBERS');
    this.#assertCanPay(costUsd);
    const now = this.#now();
    const rent: SimRent = {
      id: String(this.state.nextRentId),
      phoneNumber: this.#freshNumber(country),
      service: request.service,
      countryId: country.providerId,
      operator,
      costUsd,
      createdAtMs: now,
      endsAtMs: now + request.hours * HOUR_MS,
      status: 'active',
      sms: [],
      // The first SMS comes within the activation delays, so a fresh rent soon shows something.
      nextSmsAtMs: this.#scheduleSms(now),
      webhookUrl: request.webhookUrl ?? null,
      closedAtMs: null,
    };
    this.#dueBy(rent.endsAtMs);
    this.state.nextRentId += 1 + this.#random.int(0, 7);
    this.state.rents[rent.id] = rent;
    this.#moveBalance(-usdCents(costUsd));
    this.onChange(`rent:${rent.id}`);
    return rent;
  }

  rentById(id: string | undefined): SimRent {
    if (id === undefined || id === '') throw new ProtocolRefusal('NO_ID_RENT');
    const rent = this.state.rents[id];
    if (!rent) throw new ProtocolRefusal('INVALID_PHONE');
    return rent;
  }

  activeRents(): SimRent[] {
    return Object.values(this.state.rents)
      .filter((rent) => rent.status === 'active')
      .sort((left, right) => left.createdAtMs - right.createdAtMs);
  }

  /** setRentStatus: 1 finish, 2 cancel (within 20 minutes and before any SMS, refunded). */
  setRentStatus(id: string | undefined, status: number): void {
    const rent = this.rentById(id);
    if (status !== 1 && status !== 2) throw new ProtocolRefusal('INCORECT_STATUS');
    if (rent.status === 'finished' || rent.status === 'revoked') throw new ProtocolRefusal('ALREADY_FINISH');
    if (rent.status === 'cancelled') throw new ProtocolRefusal('ALREADY_CANCEL');
    const now = this.#now();
    if (status === 2) {
      if (rent.sms.length > 0 || now - rent.createdAtMs > RENT_CANCEL_WINDOW_MS) {
        throw new ProtocolRefusal('CANT_CANCEL');
      }
      this.#moveBalance(usdCents(rent.costUsd));
    }
    rent.status = status === 1 ? 'finished' : 'cancelled';
    this.#takenNumbers?.delete(rent.phoneNumber);
    rent.nextSmsAtMs = null;
    rent.closedAtMs = now;
    this.#dueBy(now + CLOSED_RENT_RETENTION_MS + 1);
    this.onChange(`rent:${rent.id}`);
  }

  extensionPrice(id: string | undefined, hours: number): number {
    const rent = this.rentById(id);
    if (rent.status !== 'active') throw new ProtocolRefusal('RENT_DIE');
    assertRentHours(hours, MIN_EXTENSION_HOURS);
    return this.rentOffer(this.country(rent.countryId), rent.service, hours).costUsd;
  }

  extendRent(id: string | undefined, hours: number): SimRent {
    const costUsd = this.extensionPrice(id, hours);
    this.#assertCanPay(costUsd);
    const rent = this.rentById(id);
    // Ends later than before: nothing becomes due sooner.
    rent.endsAtMs += hours * HOUR_MS;
    rent.costUsd = (usdCents(rent.costUsd) + usdCents(costUsd)) / 100;
    this.#moveBalance(-usdCents(costUsd));
    this.onChange(`rent:${rent.id}`);
    return rent;
  }

  #deliverToRent(rent: SimRent, generated: GeneratedSms, atMs: number): Delivery {
    const sms: SimSms = { ...generated, receivedAtMs: atMs };
    rent.sms.push(sms);
    this.onChange(`rent:${rent.id}`);
    return { type: 'rent', rent, sms };
  }

  /** The id of the active rent of a phone number (the control API's way to name a rent by its number). */
  liveRentIdOf(phoneNumber: string): string {
    const rent = Object.values(this.state.rents).find(
      (entry) => entry.phoneNumber === phoneNumber && entry.status === 'active',
    );
    if (!rent) throw new ProtocolRefusal('INVALID_PHONE');
    return rent.id;
  }

  injectRentSms(id: string, from?: string, text?: string): Delivery {
    const rent = this.rentById(id);
    if (rent.status !== 'active') throw new ProtocolRefusal('RENT_DIE');
    const generated = verificationSms(rent.service, this.#random);
    const sms: GeneratedSms = {
      from: from ?? generated.from,
      text: text ?? generated.text,
      code: text === undefined ? generated.code : extractCode(text),
    };
    return this.#deliverToRent(rent, sms, this.#now());
  }

  // Time ------------------------------------------------------------------------------------------------

  /** Delivers due SMS, closes what expired, forgets what is long closed. Returns the new SMS. */
  /**
   * Nothing is due before this time, so a tick can return at once: a scan of every activation on every
   * request cost more than the purchases themselves once thousands were live. Whatever schedules
   * something brings it forward (`#dueBy`), so a purchase never forces a scan.
   */
  #nextDueAtMs = 0;

  #dueBy(atMs: number): void {
    if (atMs < this.#nextDueAtMs) this.#nextDueAtMs = atMs;
  }

  tick(): Delivery[] {
    const now = this.#now();
    if (now < this.#nextDueAtMs) return [];
    let nextDueAtMs = Number.POSITIVE_INFINITY;
    const dueLater = (atMs: number | null) => {
      if (atMs !== null && atMs > now && atMs < nextDueAtMs) nextDueAtMs = atMs;
    };
    const deliveries: Delivery[] = [];
    for (const activation of Object.values(this.state.activations)) {
      if (!isLiveActivation(activation)) {
        if (activation.closedAtMs !== null && now - activation.closedAtMs > CLOSED_ACTIVATION_RETENTION_MS) {
          delete this.state.activations[activation.id];
          this.onChange(`activation:${activation.id}`);
        } else if (activation.closedAtMs !== null) {
          dueLater(activation.closedAtMs + CLOSED_ACTIVATION_RETENTION_MS + 1);
        }
        continue;
      }
      const dueAtMs = activation.nextSmsAtMs;
      if (dueAtMs !== null && dueAtMs <= now && dueAtMs < activation.expiresAtMs) {
        deliveries.push(
          this.#deliverToActivation(activation, verificationSms(activation.service, this.#random), dueAtMs),
        );
      }
      if (now >= activation.expiresAtMs) {
        // Twenty minutes are over: without a code the number is refunded, with one it is billed.
        this.#closeActivation(
          activation,
          activation.sms.length > 0 ? 'finished' : 'cancelled',
          activation.expiresAtMs,
        );
      }
    }
    for (const rent of Object.values(this.state.rents)) {
      if (rent.status !== 'active') {
        if (rent.closedAtMs !== null && now - rent.closedAtMs > CLOSED_RENT_RETENTION_MS) {
          delete this.state.rents[rent.id];
          this.onChange(`rent:${rent.id}`);
        }
        continue;
      }
      while (rent.nextSmsAtMs !== null && rent.nextSmsAtMs <= now && rent.nextSmsAtMs < rent.endsAtMs) {
        deliveries.push(this.#deliverToRent(rent, rentSms(rent.service, this.#random), rent.nextSmsAtMs));
        rent.nextSmsAtMs += this.#random.int(RENT_SMS_GAP_MIN_MS, RENT_SMS_GAP_MAX_MS);
      }
      if (now >= rent.endsAtMs) {
        rent.status = 'finished';
        this.#takenNumbers?.delete(rent.phoneNumber);
        rent.nextSmsAtMs = null;
        rent.closedAtMs = rent.endsAtMs;
        this.onChange(`rent:${rent.id}`);
      }
    }
    const period = `${Math.floor(now / STOCK_PERIOD_MS)}:`;
    for (const key of Object.keys(this.state.sold)) {
      if (!key.startsWith(period)) delete this.state.sold[key];
    }
    for (const activation of Object.values(this.state.activations)) {
      if (isLiveActivation(activation)) {
        dueLater(activation.nextSmsAtMs);
        dueLater(activation.expiresAtMs);
      }
    }
    for (const rent of Object.values(this.state.rents)) {
      if (rent.status === 'active') {
        dueLater(rent.nextSmsAtMs);
        dueLater(rent.endsAtMs);
      } else if (rent.closedAtMs !== null) {
        dueLater(rent.closedAtMs + CLOSED_RENT_RETENTION_MS + 1);
      }
    }
    this.#nextDueAtMs = nextDueAtMs;
    return deliveries;
  }
}

function assertRentHours(hours: number, minimum: number): void {
  if (!Number.isInteger(hours) || hours < minimum || hours > MAX_RENT_HOURS)
    throw new ProtocolRefusal('INVALID_TIME');
}

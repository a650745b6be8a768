import { ProtocolRefusal } from '@simcode/sms-activate-protocol';
import { usdCents } from './account';
import {
  MAX_RENT_HOURS,
  MIN_EXTENSION_HOURS,
  MIN_RENT_HOURS,
  SIM_RENT_SERVICES,
  type SimCountry,
  simCountry,
} from './catalog';
import { HOUR_MS, MINUTE_MS, type SimCore } from './engine-core';
import { extractCode, type GeneratedSms, verificationSms } from './messages';
import type { Delivery, SimRent, SimSms } from './model';

const RENT_CANCEL_WINDOW_MS = 20 * MINUTE_MS;
/** Closed rents are kept a week for getRentStatus, then forgotten. */
export const CLOSED_RENT_RETENTION_MS = 7 * 24 * HOUR_MS;

function assertRentHours(hours: number, minimum: number): void {
  if (!Number.isInteger(hours) || hours < minimum || hours > MAX_RENT_HOURS)
    throw new ProtocolRefusal('INVALID_TIME');
}

/** Rents with the life cycle of docs/protocols.md A.6: rent, extend, finish or cancel, SMS until the end. */
export class RentDesk {
  constructor(private readonly core: SimCore) {}

  rentCatalog(countryId: number, hours: number): Array<{ service: string; costUsd: number; stock: number }> {
    assertRentHours(hours, MIN_RENT_HOURS);
    const country = this.#rentCountry(countryId);
    return SIM_RENT_SERVICES.map((service) => ({ service, ...this.core.rentOffer(country, service, hours) }));
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
    const { core } = this;
    if (!SIM_RENT_SERVICES.includes(request.service)) throw new ProtocolRefusal('BAD_SERVICE');
    assertRentHours(request.hours, MIN_RENT_HOURS);
    const country = this.#rentCountry(request.countryId);
    const operator = core.operator(country, request.operator);
    const { costUsd, stock } = core.rentOffer(country, request.service, request.hours);
    if (stock <= 0) throw new ProtocolRefusal('NO_NUMBERS');
    core.assertCanPay(costUsd);
    const now = core.now();
    const rent: SimRent = {
      id: String(core.state.nextRentId),
      phoneNumber: core.freshNumber(country),
      service: request.service,
      countryId: country.providerId,
      operator,
      costUsd,
      createdAtMs: now,
      endsAtMs: now + request.hours * HOUR_MS,
      status: 'active',
      sms: [],
      // The first SMS comes within the activation delays, so a fresh rent soon shows something.
      nextSmsAtMs: core.scheduleSms(now),
      webhookUrl: request.webhookUrl ?? null,
      closedAtMs: null,
    };
    core.dueBy(rent.endsAtMs);
    core.state.nextRentId += 1 + core.random.int(0, 7);
    core.state.rents[rent.id] = rent;
    core.moveBalance(-usdCents(costUsd));
    core.onChange(`rent:${rent.id}`);
    return rent;
  }

  rentById(id: string | undefined): SimRent {
    if (id === undefined || id === '') throw new ProtocolRefusal('NO_ID_RENT');
    const rent = this.core.state.rents[id];
    if (!rent) throw new ProtocolRefusal('INVALID_PHONE');
    return rent;
  }

  activeRents(): SimRent[] {
    return Object.values(this.core.state.rents)
      .filter((rent) => rent.status === 'active')
      .sort((left, right) => left.createdAtMs - right.createdAtMs);
  }

  /** setRentStatus: 1 finish, 2 cancel (within 20 minutes and before any SMS, refunded). */
  setRentStatus(id: string | undefined, status: number): void {
    const rent = this.rentById(id);
    if (status !== 1 && status !== 2) throw new ProtocolRefusal('INCORECT_STATUS');
    if (rent.status === 'finished' || rent.status === 'revoked') throw new ProtocolRefusal('ALREADY_FINISH');
    if (rent.status === 'cancelled') throw new ProtocolRefusal('ALREADY_CANCEL');
    const now = this.core.now();
    if (status === 2) {
      if (rent.sms.length > 0 || now - rent.createdAtMs > RENT_CANCEL_WINDOW_MS) {
        throw new ProtocolRefusal('CANT_CANCEL');
      }
      this.core.moveBalance(usdCents(rent.costUsd));
    }
    this.close(rent, status === 1 ? 'finished' : 'cancelled', now);
  }

  /** Ends the rent at `atMs` (a refund, when due, is the caller's). */
  close(rent: SimRent, status: 'finished' | 'cancelled', atMs: number): void {
    rent.status = status;
    this.core.releaseNumber(rent.phoneNumber);
    rent.nextSmsAtMs = null;
    rent.closedAtMs = atMs;
    this.core.dueBy(atMs + CLOSED_RENT_RETENTION_MS + 1);
    this.core.onChange(`rent:${rent.id}`);
  }

  extensionPrice(id: string | undefined, hours: number): number {
    const rent = this.rentById(id);
    if (rent.status !== 'active') throw new ProtocolRefusal('RENT_DIE');
    assertRentHours(hours, MIN_EXTENSION_HOURS);
    return this.core.rentOffer(this.core.country(rent.countryId), rent.service, hours).costUsd;
  }

  extendRent(id: string | undefined, hours: number): SimRent {
    const costUsd = this.extensionPrice(id, hours);
    this.core.assertCanPay(costUsd);
    const rent = this.rentById(id);
    // Ends later than before: nothing becomes due sooner.
    rent.endsAtMs += hours * HOUR_MS;
    rent.costUsd = (usdCents(rent.costUsd) + usdCents(costUsd)) / 100;
    this.core.moveBalance(-usdCents(costUsd));
    this.core.onChange(`rent:${rent.id}`);
    return rent;
  }

  deliver(rent: SimRent, generated: GeneratedSms, atMs: number): Delivery {
    const sms: SimSms = { ...generated, receivedAtMs: atMs };
    rent.sms.push(sms);
    this.core.onChange(`rent:${rent.id}`);
    return { type: 'rent', rent, sms };
  }

  /** The id of the active rent of a phone number (the control API's way to name a rent by its number). */
  liveRentIdOf(phoneNumber: string): string {
    const rent = Object.values(this.core.state.rents).find(
      (entry) => entry.phoneNumber === phoneNumber && entry.status === 'active',
    );
    if (!rent) throw new ProtocolRefusal('INVALID_PHONE');
    return rent.id;
  }

  /** The control API's "SMS now" on a rented number. */
  injectSms(id: string, from?: string, text?: string): Delivery {
    const rent = this.rentById(id);
    if (rent.status !== 'active') throw new ProtocolRefusal('RENT_DIE');
    const generated = verificationSms(rent.service, this.core.random);
    const sms: GeneratedSms = {
      from: from ?? generated.from,
      text: text ?? generated.text,
      code: text === undefined ? generated.code : extractCode(text),
    };
    return this.deliver(rent, sms, this.core.now());
  }
}

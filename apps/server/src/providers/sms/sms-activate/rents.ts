import {
  rentCatalogAnswer,
  rentListAnswer,
  rentPhoneAnswer,
  rentPriceAnswer,
  rentStatusAnswer,
} from '@simcode/sms-activate-protocol';
import type { RentProvider, RentState } from '../types';
import { type Connection, digitsOnly } from './connection';

const RENT_MESSAGES_PAGE_SIZE = 50;

/** Rents through the protocol's rent actions (getRentNumber, getRentStatus, setRentStatus, …). */
export function rentOperations(connection: Connection): Omit<RentProvider, 'name' | 'parseWebhook'> {
  const { call, failure, readJson, jsonCall, ids, zoned, providerCountry, providerService, operatorParam } =
    connection;
  return {
    async getRentCatalog(request) {
      const catalog = await jsonCall(
        'getRentServicesAndCountries',
        {
          rent_time: request.hours,
          operator: operatorParam(request.operator) ?? 'any',
          country: request.countryId === undefined ? undefined : providerCountry(request.countryId, 'read'),
        },
        rentCatalogAnswer,
        'read',
      );
      const services: Record<string, { cost: number; stock: number }> = {};
      for (const [providerCode, offer] of Object.entries(catalog.services)) {
        const service = ids.serviceToCanonical(providerCode);
        if (service !== undefined) services[service] = { cost: offer.cost, stock: offer.quant ?? 0 };
      }
      return {
        countries: [
          ...new Set(catalog.countries.flatMap((providerId) => ids.countryToIso(providerId) ?? [])),
        ],
        operators: (catalog.operators ?? []).filter((operator) => operator !== 'any'),
        services,
      };
    },

    async rentNumber(request) {
      const rented = await jsonCall(
        'getRentNumber',
        {
          service: providerService(request.service, 'write'),
          country: providerCountry(request.countryId, 'write'),
          operator: operatorParam(request.operator),
          rent_time: request.hours,
          url: request.webhookUrl,
        },
        rentPhoneAnswer,
        'write',
      );
      return {
        rentId: rented.phone.id,
        phoneNumber: digitsOnly(rented.phone.number),
        endsAt: zoned(rented.phone.endDate),
      };
    },

    async getRentState(rentId, page = 0) {
      // Our pages count from 0, the provider's from 1.
      const providerPage = Math.max(0, Math.floor(page)) + 1;
      const answer = await call(
        'getRentStatus',
        { id: rentId, page: providerPage, size: RENT_MESSAGES_PAGE_SIZE },
        'read',
      );
      if (answer.type === 'error' || answer.type === 'token') {
        const states: Record<string, RentState> = {
          STATUS_WAIT_CODE: { kind: 'waiting' },
          STATUS_CANCEL: { kind: 'cancelled' },
          STATUS_FINISH: { kind: 'finished' },
          STATUS_REVOKE: { kind: 'revoked' },
        };
        const state = states[answer.token];
        if (state) return state;
      }
      const status = readJson('getRentStatus', answer, rentStatusAnswer, 'read');
      const messages = (status.values ?? []).map((sms) => ({
        from: sms.phoneFrom,
        text: sms.text,
        code: sms.code ?? undefined,
        receivedAt: zoned(sms.date),
      }));
      if (messages.length === 0 && !status.quantity) return { kind: 'waiting' };
      return { kind: 'messages', messages, total: status.quantity ?? messages.length };
    },

    async finishRent(rentId) {
      const answer = await call('setRentStatus', { id: rentId, status: 1 }, 'write');
      if (answer.type !== 'json' && answer.type !== 'empty') throw failure('setRentStatus', answer, 'write');
    },

    async cancelRent(rentId) {
      const answer = await call('setRentStatus', { id: rentId, status: 2 }, 'write');
      if (answer.type !== 'json' && answer.type !== 'empty') throw failure('setRentStatus', answer, 'write');
    },

    async getRentExtensionPrice(rentId, hours) {
      const answer = await jsonCall(
        'getContinueRentPriceNumber',
        { id: rentId, rent_time: hours },
        rentPriceAnswer,
        'read',
      );
      return answer.price;
    },

    async extendRent(rentId, hours) {
      const extended = await jsonCall(
        'continueRentNumber',
        { id: rentId, rent_time: hours },
        rentPhoneAnswer,
        'write',
      );
      return { endsAt: zoned(extended.phone.endDate) };
    },

    async listActiveRents() {
      const answer = await call('getRentList', {}, 'read');
      // Older servers say "nothing rented" as an error.
      if (answer.type === 'error' && (answer.token === 'NO_NUMBERS' || answer.token === 'NO_ACTIVATIONS'))
        return [];
      const list = readJson('getRentList', answer, rentListAnswer, 'read');
      return (list.values ?? []).map((rent) => ({ rentId: rent.id, phoneNumber: digitsOnly(rent.phone) }));
    },
  };
}

import { centsToDollars, countryById, rentServices } from '@simcode/contract';
import {
  DEFAULT_RENT_STATUS_PAGE_SIZE,
  indexed,
  json,
  numberV2Body,
  type Params,
  ProtocolRefusal,
  protocolIds,
  type ResponseStyle,
  rentPhoneBody,
  rentStatusBody,
  serviceParam,
  USD_CURRENCY,
} from '@simcode/sms-activate-protocol';
import type { RentRow } from '../../db/schema';
import { ANY_OPERATOR } from '../catalog/service';
import { isLiveRent } from '../orders/lifecycle';
import { orderIdOf } from '../orders/rents/presenter';
import type { Call, Handler, ResellerDeps } from './deps';
import {
  browsing,
  countryIsoParam,
  hoursParam,
  MAX_PAGE_SIZE,
  numberedPage,
  positiveId,
} from './handler-params';

function rentOptionFor(params: Params) {
  const canonical = serviceParam(params);
  const option = rentServices.find((entry) => entry.service === canonical);
  if (!option) throw new ProtocolRefusal('BAD_SERVICE');
  return option;
}

function rentPhone(rent: RentRow, style: ResponseStyle) {
  const endsAtMs = (rent.endsAt ?? rent.createdAt).getTime();
  return rentPhoneBody({ id: rent.id, phoneNumber: rent.phoneNumber!, endsAtMs }, style);
}

/** A rent as Hero's getRentNumber tells it: getNumberV2's object, `subtype` 2. */
function rentAsNumber(rent: RentRow, style: ResponseStyle) {
  return numberV2Body(
    {
      id: String(rent.id),
      phoneNumber: rent.phoneNumber!,
      costUsd: centsToDollars(rent.priceCents),
      countryId: protocolIds.countryOf(rent.countryId),
      dialCode: countryById(rent.countryId)?.dialCode ?? '',
      service: protocolIds.serviceOf(rent.service),
      operator: ANY_OPERATOR,
      boughtAtMs: rent.createdAt.getTime(),
      endsAtMs: (rent.endsAt ?? rent.createdAt).getTime(),
      // A rented number receives every SMS of its term.
      canGetAnotherSms: true,
      rent: true,
    },
    style,
    { complete: true },
  );
}

/**
 * Rents through the protocol: the rent catalog, renting (SMS-Activate's `rent_time` and Hero's `duration`,
 * with a per-rent webhook URL), reading its SMS, ending, listing and extending, over the rentals service.
 */
export function createRentActions(deps: ResellerDeps): Record<string, Handler> {
  const { rentals, apiKeys } = deps;

  async function ownRent(call: Call): Promise<RentRow> {
    if (!call.params.id?.trim()) throw new ProtocolRefusal('NO_ID_RENT');
    const found = await rentals.findOwnById(call.key.userId, positiveId(call.params.id, 'INVALID_PHONE'));
    if (!found) throw new ProtocolRefusal('INVALID_PHONE');
    return found;
  }

  return {
    getRentServicesAndCountries: async ({ key, params }) => {
      const hours = hoursParam(params);
      const rentCountries = await rentals.catalog.countries(browsing(key));
      const countryId = params.country?.trim() ? countryIsoParam(params, 'WRONG_COUNTRY') : rentCountries[0];
      const offers = countryId ? await rentals.catalog.offers(countryId, hours, browsing(key)) : [];
      const services: Record<string, Record<string, number>> = {};
      for (const offer of offers) {
        const price = centsToDollars(offer.priceCents);
        // SMS-Activate's `cost` and `quant`, and Hero's `price`, `retail_price` and `quantity`.
        services[protocolIds.serviceOf(offer.service)] ??= {
          cost: price,
          quant: offer.stock,
          price,
          retail_price: price,
          quantity: offer.stock,
        };
      }
      return json({
        countries: indexed(rentCountries.map((iso) => protocolIds.countryOf(iso)).filter((id) => id >= 0)),
        operators: { '0': ANY_OPERATOR },
        services,
      });
    },

    getRentNumber: async (call) => {
      const option = rentOptionFor(call.params);
      const hours = hoursParam(call.params);
      const countryId = countryIsoParam(call.params, 'WRONG_COUNTRY');
      // The rent's own webhook URL, held to the checks of a key's callback URL before anything is charged.
      const webhookUrl = call.params.url?.trim() || undefined;
      if (webhookUrl) await apiKeys.checkCallbackUrl(webhookUrl);
      const rent = await rentals.rent(
        call.key.userId,
        {
          countryId,
          serviceKey: option.key,
          period: { unit: 'hour', count: hours, hours, renewable: false },
          webhookUrl,
        },
        apiKeys.spendThrough(call.key),
      );
      // Hero's clients rent with `duration` and read getNumberV2's object back.
      if (call.params.duration !== undefined) return json(rentAsNumber(rent, call.style));
      return json(rentPhone(rent, call.style));
    },

    getRentStatus: async (call) => {
      const rent = await ownRent(call);
      const messages = await rentals.messagesOf(rent);
      if (messages.length === 0) {
        if (rent.status === 'canceled') throw new ProtocolRefusal('STATUS_CANCEL');
        if (rent.status === 'expired') throw new ProtocolRefusal('STATUS_FINISH');
        throw new ProtocolRefusal('STATUS_WAIT_CODE');
      }
      // The rentals service lists them newest first, as the protocol does.
      const newestFirst = messages.map((message) => ({
        from: message.sender,
        text: message.text,
        receivedAtMs: message.receivedAt.getTime(),
      }));
      // Newer servers answer a page (`page` from 1, `size`); without either, every SMS as before them.
      const paged = call.params.page !== undefined || call.params.size !== undefined;
      const { offset, size } = paged
        ? numberedPage(call.params, DEFAULT_RENT_STATUS_PAGE_SIZE)
        : { offset: 0, size: newestFirst.length };
      return json(
        rentStatusBody(
          newestFirst.slice(offset, offset + size),
          messages.length,
          protocolIds.serviceOf(rent.service),
          call.style,
        ),
      );
    },

    setRentStatus: async (call) => {
      const rent = await ownRent(call);
      const status = call.params.status?.trim();
      if (status !== '1' && status !== '2') throw new ProtocolRefusal('INCORECT_STATUS');
      if (rent.status === 'canceled') throw new ProtocolRefusal('ALREADY_CANCEL');
      if (rent.status === 'expired') throw new ProtocolRefusal('ALREADY_FINISH');
      if (status === '2') {
        await rentals.cancel(call.key.userId, orderIdOf(rent) ?? '');
        return json({ status: 'success' });
      }
      if (!isLiveRent(rent.status)) throw new ProtocolRefusal('INVALID_PHONE');
      const finished = await rentals.finishEarly(rent);
      if (!finished) throw new ProtocolRefusal('CANT_CANCEL');
      return json({ status: 'success' });
    },

    getRentList: async ({ key, style }) => {
      const live = (await rentals.listRows(key.userId, MAX_PAGE_SIZE)).filter((rent) =>
        isLiveRent(rent.status),
      );
      if (live.length === 0) throw new ProtocolRefusal('NO_NUMBERS');
      const values = live.map((rent) => ({ id: String(rent.id), phone: rent.phoneNumber }));
      return json({ status: 'success', values: style === 'classic' ? indexed(values) : values });
    },

    continueRentNumber: async (call) => {
      const rent = await ownRent(call);
      const hours = hoursParam(call.params);
      const orderId = orderIdOf(rent);
      if (!orderId) throw new ProtocolRefusal('INVALID_PHONE');
      // Made through the key: the renewal counts against its caps, checked in the charge's transaction.
      const renewed = await rentals.renew(call.key.userId, orderId, hours, apiKeys.spendThrough(call.key));
      return json(rentPhone(renewed, call.style));
    },

    getContinueRentPriceNumber: async (call) => {
      const rent = await ownRent(call);
      const orderId = orderIdOf(rent);
      if (!orderId) throw new ProtocolRefusal('INVALID_PHONE');
      const quote = await rentals.renewalPrice(call.key.userId, orderId, hoursParam(call.params));
      return json({ status: 'success', price: centsToDollars(quote.priceCents), currency: USD_CURRENCY });
    },
  };
}

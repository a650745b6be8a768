import {
  countryParam,
  DEFAULT_RENT_STATUS_PAGE_SIZE,
  flagParam,
  indexed,
  integerParam,
  json,
  type ProtocolAction,
  ProtocolRefusal,
  type ResponseStyle,
  rentHoursParam,
  rentPhoneBody,
  rentStatusBody,
  serviceParam,
  USD_CURRENCY,
} from '@simcode/sms-activate-protocol';
import { type Handler, page } from './action-context';
import { MAX_RENT_HOURS, SIM_COUNTRIES } from './catalog';
import type { SimRent } from './model';

type RentAction = Extract<
  ProtocolAction,
  | 'getRentServicesAndCountries'
  | 'getRentNumber'
  | 'getRentStatus'
  | 'setRentStatus'
  | 'getRentList'
  | 'continueRentNumber'
  | 'getContinueRentPriceNumber'
  | 'continueRentInfo'
>;

function rentPhone(rent: SimRent, style: ResponseStyle) {
  return rentPhoneBody({ id: rent.id, phoneNumber: rent.phoneNumber, endsAtMs: rent.endsAtMs }, style);
}

/** handler_api.php's rent actions (protocols.md A.6), answered from the engine's rent desk. */
export const RENT_ACTIONS: Readonly<Record<RentAction, Handler>> = {
  getRentServicesAndCountries: ({ engine, style, params }) => {
    const country = engine.country(countryParam(params));
    const offers = engine.rents.rentCatalog(country.providerId, rentHoursParam(params));
    return json({
      countries: indexed(
        SIM_COUNTRIES.filter((candidate) => candidate.rentSupported).map((candidate) => candidate.providerId),
      ),
      operators: indexed(['any', ...country.operators]),
      services: Object.fromEntries(
        offers.map((offer) => [
          offer.service,
          {
            cost: offer.costUsd,
            // Newer providers report stock as {current, total}; older ones as a number.
            quant: style === 'hero' ? { current: offer.stock, total: offer.stock } : offer.stock,
          },
        ]),
      ),
    });
  },

  getRentNumber: ({ engine, style, params }) => {
    const rent = engine.rents.rent({
      service: serviceParam(params),
      countryId: countryParam(params),
      operator: params.operator,
      hours: rentHoursParam(params),
      webhookUrl: params.url?.trim() || undefined,
    });
    return json(rentPhone(rent, style));
  },

  getRentStatus: ({ engine, style, params }) => {
    const rent = engine.rents.rentById(params.id);
    if (rent.status === 'cancelled') throw new ProtocolRefusal('STATUS_CANCEL');
    if (rent.status === 'finished') throw new ProtocolRefusal('STATUS_FINISH');
    if (rent.status === 'revoked') throw new ProtocolRefusal('STATUS_REVOKE');
    if (rent.sms.length === 0) throw new ProtocolRefusal('STATUS_WAIT_CODE');
    const size = integerParam(params.size, DEFAULT_RENT_STATUS_PAGE_SIZE, 'INVALID_PARAMETER');
    const pageNumber = integerParam(params.page, 1, 'INVALID_PARAMETER');
    const newestFirst = [...rent.sms].reverse();
    return json(
      rentStatusBody(page(newestFirst, (pageNumber - 1) * size, size), rent.sms.length, rent.service, style),
    );
  },

  setRentStatus: ({ engine, params }) => {
    engine.rents.setRentStatus(params.id, integerParam(params.status, undefined, 'INCORECT_STATUS'));
    return json({ status: 'success' });
  },

  getRentList: ({ engine, style }) => {
    const values = engine.rents.activeRents().map((rent) => ({ id: rent.id, phone: rent.phoneNumber }));
    return json({ status: 'success', values: style === 'classic' ? indexed(values) : values });
  },

  continueRentNumber: ({ engine, style, params }) =>
    json(rentPhone(engine.rents.extendRent(params.id, rentHoursParam(params)), style)),

  getContinueRentPriceNumber: ({ engine, params }) =>
    json({
      status: 'success',
      price: engine.rents.extensionPrice(params.id, rentHoursParam(params)),
      currency: USD_CURRENCY,
    }),

  continueRentInfo: ({ engine, params }) => {
    const price = engine.rents.extensionPrice(params.id, rentHoursParam(params, 'hours'));
    return json({
      status: 'success',
      price,
      currency: USD_CURRENCY,
      maxHours: MAX_RENT_HOURS,
      ...(flagParam(params.needHistory) ? { history: {} } : {}),
    });
  },
};

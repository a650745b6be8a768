import type { ResponseStyle } from './actions';
import { rfc3339, saDateTime } from './dates';
import { formatUsd, USD_CURRENCY } from './replies';

/**
 * The answer shapes a server of ours shares with every other: built from what the server knows, in the
 * protocol's ids, written the way the style writes them (classic: strings and zone-less dates; Hero:
 * numbers, booleans and RFC 3339).
 */

/** A bought number as getNumberV2 tells it. */
export interface BoughtNumber {
  id: string;
  phoneNumber: string;
  costUsd: number;
  /** The protocol's country id. */
  countryId: number;
  /** Its dialling code without `+` (Hero tells it). */
  dialCode: string;
  /** The protocol's service code (Hero tells it). */
  service: string;
  operator: string;
  boughtAtMs: number;
  endsAtMs: number;
}

/**
 * getNumberV2's answer. SMS-Activate's classic answer leaves out the currency and the end of the activation,
 * which others of the family (sms-online.pro) add: `withCurrencyAndEnd`.
 */
export function numberV2Body(
  bought: BoughtNumber,
  style: ResponseStyle,
  { withCurrencyAndEnd = false } = {},
): Record<string, unknown> {
  if (style === 'classic') {
    return {
      activationId: bought.id,
      phoneNumber: bought.phoneNumber,
      activationCost: formatUsd(bought.costUsd),
      ...(withCurrencyAndEnd ? { currency: USD_CURRENCY } : {}),
      countryCode: String(bought.countryId),
      canGetAnotherSms: '1',
      activationTime: saDateTime(bought.boughtAtMs),
      ...(withCurrencyAndEnd ? { activationEndTime: saDateTime(bought.endsAtMs) } : {}),
      activationOperator: bought.operator,
    };
  }
  return {
    activationId: Number(bought.id),
    phoneNumber: bought.phoneNumber,
    activationCost: bought.costUsd,
    currency: USD_CURRENCY,
    countryCode: bought.countryId,
    countryPhoneCode: Number(bought.dialCode),
    canGetAnotherSms: true,
    activationTime: rfc3339(bought.boughtAtMs),
    activationEndTime: rfc3339(bought.endsAtMs),
    activationOperator: bought.operator,
    verificationType: 'sms',
    serviceCode: bought.service,
    status: 4,
  };
}

/** A live activation as getActiveActivations lists it. */
export interface ActiveActivation {
  id: string;
  /** The protocol's service code. */
  service: string;
  phoneNumber: string;
  costUsd: number;
  /** The protocol's status code: 4 waiting, 2 code received, 3 another SMS asked for. */
  status: string;
  /** The codes and texts of its SMS, oldest first; classic answers tell the last of each. */
  codes: readonly string[];
  texts: readonly string[];
  /** More than one SMS came. */
  repeated: boolean;
  boughtAtMs: number;
  /** The protocol's country id, and the country's name. */
  countryId: number;
  countryName: string;
}

export function activeActivationBody(activation: ActiveActivation, style: ResponseStyle) {
  const classic = style === 'classic';
  return {
    activationId: classic ? activation.id : Number(activation.id),
    serviceCode: activation.service,
    phoneNumber: activation.phoneNumber,
    activationCost: classic ? formatUsd(activation.costUsd) : activation.costUsd,
    ...(classic ? {} : { currency: USD_CURRENCY }),
    activationStatus: activation.status,
    smsCode: classic ? (activation.codes.at(-1) ?? null) : activation.codes,
    smsText: classic ? (activation.texts.at(-1) ?? null) : activation.texts,
    activationTime: classic ? saDateTime(activation.boughtAtMs) : rfc3339(activation.boughtAtMs),
    discount: '0.00',
    repeated: activation.repeated ? '1' : '0',
    countryCode: classic ? String(activation.countryId) : activation.countryId,
    countryName: activation.countryName,
    canGetAnotherSms: classic ? '1' : true,
    ...(classic ? {} : { verificationType: 'sms' }),
  };
}

/** A rented number as getRentNumber and continueRentNumber tell it. */
export interface RentedNumber {
  id: string | number;
  phoneNumber: string;
  endsAtMs: number;
}

export function rentPhoneBody(rent: RentedNumber, style: ResponseStyle) {
  const classic = style === 'classic';
  return {
    status: 'success',
    phone: {
      id: classic ? Number(rent.id) : String(rent.id),
      endDate: classic ? saDateTime(rent.endsAtMs).replace(' ', 'T') : rfc3339(rent.endsAtMs),
      number: rent.phoneNumber,
    },
  };
}

/** A country as getCountries lists it; the names are English only (clients read every one of them). */
export function countryBody(country: { id: number; name: string; rent: boolean }) {
  return {
    id: country.id,
    rus: country.name,
    eng: country.name,
    chn: country.name,
    visible: 1,
    retry: 1,
    rent: country.rent ? 1 : 0,
  };
}

/** An SMS as getStatusV2 and getRentStatus tell it; the sender where the server knows it. */
export interface ReceivedSms {
  from?: string;
  text: string;
  code: string | null;
  receivedAtMs: number;
}

/**
 * getStatusV2's answer (protocols.md A.4.5): the last SMS with its full text, in SMS-Activate's shape
 * (`sms`/`call`) or Hero's (`data`); null while none came. A cancelled activation answers `STATUS_CANCEL`
 * instead, as text.
 */
export function statusV2Body(
  activation: { id: string; service: string },
  last: ReceivedSms | undefined,
  style: ResponseStyle,
) {
  if (style === 'classic') {
    return {
      verificationType: 0,
      sms: last ? { dateTime: saDateTime(last.receivedAtMs), code: last.code, text: last.text } : null,
      call: null,
    };
  }
  return {
    verificationType: 'sms',
    data: last
      ? {
          id: Number(activation.id),
          phoneFrom: last.from,
          code: last.code,
          text: last.text,
          service: activation.service,
          date: rfc3339(last.receivedAtMs),
          type: 'sms',
        }
      : null,
  };
}

/** One SMS of a rented number as getRentStatus lists it. */
export function rentMessageBody(
  sms: { from: string; text: string; receivedAtMs: number },
  service: string,
  style: ResponseStyle,
) {
  return {
    phoneFrom: sms.from,
    text: sms.text,
    service,
    date: style === 'classic' ? saDateTime(sms.receivedAtMs) : rfc3339(sms.receivedAtMs),
  };
}

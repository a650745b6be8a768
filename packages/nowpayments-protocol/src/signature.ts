import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * NOWPayments signs IPN callbacks (docs/payment-protocols.md, "NOWPayments: IPN") with
 * `hex(HMAC-SHA512(ipnSecret, JSON.stringify(body with every object's keys sorted)))` in the header
 * `x-nowpayments-sig`. The receiver re-serialises the parsed body with sorted keys, as NOWPayments' own
 * Node example does, so key order and whitespace of the bytes on the wire do not matter.
 */

export const SIGNATURE_HEADER = 'x-nowpayments-sig';

/** A copy with the keys of every nested object in code-unit order; arrays keep their order. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) sorted[key] = sortKeysDeep(source[key]);
    return sorted;
  }
  return value;
}

/** The text NOWPayments signs for a payload. */
export function canonicalJson(payload: unknown): string {
  return JSON.stringify(sortKeysDeep(payload));
}

/** The `x-nowpayments-sig` value of a payload. */
export function signIpn(payload: unknown, ipnSecret: string): string {
  return createHmac('sha512', ipnSecret).update(canonicalJson(payload)).digest('hex');
}

/**
 * The payload of a callback whose signature is right, or null: a missing or malformed header, a body
 * that is not a JSON object, or a signature made with another secret.
 */
export function verifyIpn(
  rawBody: string,
  signature: string | string[] | undefined,
  ipnSecret: string,
): Record<string, unknown> | null {
  if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const expected = Buffer.from(signIpn(payload, ipnSecret), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? (payload as Record<string, unknown>)
    : null;
}

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { amountToCents, amountToUnits, unitsToAmount } from './amounts';
import { canonicalJson, signIpn, verifyIpn } from './signature';

const secret = 'ipn-secret';

describe('NOWPayments IPN signature', () => {
  it('signs the JSON with keys sorted at every depth, whatever order the body has', () => {
    const body =
      '{"payment_status":"finished","fee":{"serviceFee":0.1,"currency":"usdt"},"actually_paid":10.5}';
    expect(canonicalJson(JSON.parse(body))).toBe(
      '{"actually_paid":10.5,"fee":{"currency":"usdt","serviceFee":0.1},"payment_status":"finished"}',
    );
    const expected = createHmac('sha512', secret)
      .update('{"actually_paid":10.5,"fee":{"currency":"usdt","serviceFee":0.1},"payment_status":"finished"}')
      .digest('hex');
    expect(signIpn(JSON.parse(body), secret)).toBe(expected);
    expect(verifyIpn(body, expected, secret)).toEqual(JSON.parse(body));
  });

  it('refuses a forged, missing or malformed signature and a body that is not an object', () => {
    const body = JSON.stringify({ payment_id: 1, payment_status: 'finished' });
    const good = signIpn(JSON.parse(body), secret);
    expect(verifyIpn(body, signIpn(JSON.parse(body), 'other-secret'), secret)).toBeNull();
    expect(verifyIpn(body, undefined, secret)).toBeNull();
    expect(verifyIpn(body, [good], secret)).toBeNull();
    expect(verifyIpn(body, good.slice(2), secret)).toBeNull();
    expect(verifyIpn(body.replace('finished', 'failed'), good, secret)).toBeNull();
    expect(verifyIpn('[1]', signIpn([1], secret), secret)).toBeNull();
    expect(verifyIpn('not json', good, secret)).toBeNull();
  });
});

describe('NOWPayments amounts', () => {
  it('reads numbers and decimal strings exactly', () => {
    expect(amountToCents(10.5)).toBe(1050);
    expect(amountToCents(0.29)).toBe(29);
    expect(amountToCents('16.005')).toBe(1601);
    expect(amountToUnits(0.00000031, 8)).toBe(31);
    expect(amountToUnits(1e-7, 8)).toBe(10);
    expect(amountToCents(-1)).toBeNull();
    expect(amountToCents('1e3')).toBeNull();
    expect(amountToCents(null)).toBeNull();
    expect(unitsToAmount(1050, 2)).toBe(10.5);
    expect(unitsToAmount(31, 8)).toBe(0.00000031);
  });
});

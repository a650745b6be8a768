import { describe, expect, it } from 'vitest';
import {
  JsonNumberText,
  phpJsonEncode,
  signBody,
  signWebhookPayload,
  verifyWebhookSignature,
} from './signature';

const KEY = 'TEST_PAYMENT_KEY';

/** protocols.md D.7.1's payload, without its sign. */
const DOC_PAYLOAD = {
  type: 'payment',
  uuid: '62f88b36-a9d5-4fa6-aa26-e040c3dbf26d',
  order_id: 'ord-1',
  amount: '10.00',
  payment_amount: '10.00',
  payment_amount_usd: '10.00',
  merchant_amount: '9.80',
  commission: '0.20',
  is_final: true,
  status: 'paid',
  from: null,
  wallet_address_uuid: null,
  network: 'tron',
  currency: 'USD',
  payer_currency: 'USDT',
  additional_data: 'https://x.y/z é',
  txid: 'abc',
};

/**
 * Our own vectors. Expected strings and signs were computed outside this code base, with Python 3:
 * `json.dumps(payload, separators=(',', ':'), ensure_ascii=False).replace('/', '\\/')` (which is what PHP's
 * json_encode with JSON_UNESCAPED_UNICODE prints for these values), `ensure_ascii=True` for the \uxxxx
 * variant (lowercase hex and surrogate pairs, like plain json_encode), then
 * `hashlib.md5(base64.b64encode(text.encode('utf-8')) + key.encode()).hexdigest()`.
 */
const OWN_PAYLOAD = {
  type: 'payment',
  uuid: '0b1f3c52-7e0a-4d3e-9b6c-3f1e2d4c5b6a',
  order_id: 'topup_42',
  amount: '25.50',
  payment_amount_usd: '25.50',
  is_final: true,
  status: 'paid',
  from: null,
  additional_data: '{"back":"https://simcode.example/wallet?tab=history","note":"Пополнение 💳"}',
};
const OWN_ENCODED =
  '{"type":"payment","uuid":"0b1f3c52-7e0a-4d3e-9b6c-3f1e2d4c5b6a","order_id":"topup_42","amount":"25.50",' +
  '"payment_amount_usd":"25.50","is_final":true,"status":"paid","from":null,"additional_data":' +
  '"{\\"back\\":\\"https:\\/\\/simcode.example\\/wallet?tab=history\\",\\"note\\":\\"Пополнение 💳\\"}"}';
const OWN_SIGN = '4a9a9b95341538f8bc182ebab67cb181';
const OWN_SIGN_UNICODE_ESCAPED = '7a670a0cc7efe63cf14cdb24edd2452a';
const OWN_SIGN_WITHOUT_SLASH_ESCAPING = '7c9446b57902fe6b0dade10d0bc2608d';

/** A body as Cryptomus posts it: the PHP-encoded payload with `sign` appended as the last key. */
function webhookBody(payload: Record<string, unknown>, sign: string): string {
  return `${phpJsonEncode(payload).slice(0, -1)},"sign":"${sign}"}`;
}

describe('request signing (protocols.md D.2)', () => {
  it('signs the exact body bytes', () => {
    const body =
      '{"amount":"10.00","currency":"USD","order_id":"ord-1","url_callback":"https://example.com/cb"}';
    expect(signBody(body, KEY)).toBe('ec9d3e175bb01deea06595d35528c5bd');
    expect(signBody(body.replaceAll('/', '\\/'), KEY)).toBe('e8d8aecdc7ceb7f50d2142071eedc875');
  });

  it('signs an empty body and an empty object', () => {
    expect(signBody('', KEY)).toBe('5a81159a73987ee8d7e494f5b4535ff8');
    expect(signBody('{}', KEY)).toBe('6e0f60a3ce9aa21775697108271ffca8');
  });
});

describe('phpJsonEncode', () => {
  it('escapes slashes and keeps unicode raw, in insertion order', () => {
    expect(phpJsonEncode(OWN_PAYLOAD)).toBe(OWN_ENCODED);
    expect(phpJsonEncode({ b: 1, a: [true, false, null], c: {} })).toBe(
      '{"b":1,"a":[true,false,null],"c":{}}',
    );
  });

  it('writes \\uxxxx with lowercase hex and surrogate pairs when asked, like plain json_encode', () => {
    expect(phpJsonEncode('é💳/', { escapeUnicode: true })).toBe('"\\u00e9\\ud83d\\udcb3\\/"');
  });

  it('escapes U+2028 and U+2029 even with unescaped unicode, and control characters like PHP', () => {
    expect(phpJsonEncode('a\u2028b\u2029c')).toBe('"a\\u2028b\\u2029c"');
    expect(phpJsonEncode('"\\\n\t\u0001\u007f')).toBe('"\\"\\\\\\n\\t\\u0001\u007f"');
  });

  it('prints floats the way PHP does (serialize_precision -1)', () => {
    const cases: Array<[number, string]> = [
      [10, '10'],
      [-3, '-3'],
      [1.5, '1.5'],
      [0.1, '0.1'],
      [0.0001, '0.0001'],
      [0.00001, '1.0e-5'],
      [-2.5e-5, '-2.5e-5'],
      [1.5e-7, '1.5e-7'],
      [1e16, '10000000000000000'],
      [1e17, '1.0e+17'],
      [1.2345e25, '1.2345e+25'],
      [123456.789, '123456.789'],
    ];
    for (const [value, php] of cases) expect(phpJsonEncode(value), String(value)).toBe(php);
  });

  it('prints received number text verbatim and keeps Map order', () => {
    const map = new Map<string, unknown>([
      ['2', 'two'],
      ['1', new JsonNumberText('1.0e-5')],
    ]);
    expect(phpJsonEncode(map)).toBe('{"2":"two","1":1.0e-5}');
  });

  it('refuses what json_encode cannot print', () => {
    expect(() => phpJsonEncode(Number.NaN)).toThrow(TypeError);
    expect(() => phpJsonEncode(new Date(0))).toThrow(TypeError);
  });
});

describe('webhook signature (protocols.md D.7.1)', () => {
  it('matches the documented vector, and not the one without slash escaping', () => {
    expect(signWebhookPayload(DOC_PAYLOAD, KEY)).toBe('f917854937ea7650bf4f96ed276c399e');
    expect(signBody(JSON.stringify(DOC_PAYLOAD), KEY)).toBe('483c4fa0861ca3dd6a6990c271c6910b');
  });

  it('matches our own vectors', () => {
    expect(signWebhookPayload(OWN_PAYLOAD, KEY)).toBe(OWN_SIGN);
    expect(signBody(phpJsonEncode(OWN_PAYLOAD, { escapeUnicode: true }), KEY)).toBe(OWN_SIGN_UNICODE_ESCAPED);
    expect(signBody(JSON.stringify(OWN_PAYLOAD), KEY)).toBe(OWN_SIGN_WITHOUT_SLASH_ESCAPING);
    expect(signWebhookPayload({ order_id: 'ls', additional_data: 'a\u2028b/c' }, KEY)).toBe(
      '32047e9e65f1ac807e6b846558134aee',
    );
  });

  it('verifies the documented webhook and returns its payload', () => {
    const body = webhookBody(DOC_PAYLOAD, 'f917854937ea7650bf4f96ed276c399e');
    expect(verifyWebhookSignature(body, KEY)).toEqual(DOC_PAYLOAD);
  });

  it('verifies a body sent pretty-printed, with unescaped slashes or with \\u escapes', () => {
    const pretty = JSON.stringify({ ...OWN_PAYLOAD, sign: OWN_SIGN }, null, 2);
    expect(verifyWebhookSignature(pretty, KEY)).toEqual(OWN_PAYLOAD);
    const asciiBody = phpJsonEncode({ ...OWN_PAYLOAD, sign: OWN_SIGN }, { escapeUnicode: true });
    expect(verifyWebhookSignature(asciiBody, KEY)).toEqual(OWN_PAYLOAD);
  });

  it('falls back to the \\uxxxx form when the sender signed that', () => {
    expect(verifyWebhookSignature(webhookBody(OWN_PAYLOAD, OWN_SIGN_UNICODE_ESCAPED), KEY)).toEqual(
      OWN_PAYLOAD,
    );
  });

  it('hashes received numbers as written, not as JS would print them', () => {
    // Python: md5(b64('{"rate":"0.99","fee":0.10,"big":12345678901234567890,"tiny":1.0e-5}') + key).
    const body =
      '{"rate":"0.99","fee":0.10,"big":12345678901234567890,"tiny":1.0e-5,"sign":"3ed3fdbb3a65f6f36acedec8a09a98c0"}';
    expect(verifyWebhookSignature(body, KEY)).not.toBeNull();
  });

  it('accepts an uppercase sign and rejects everything forged or broken', () => {
    const valid = webhookBody(DOC_PAYLOAD, 'f917854937ea7650bf4f96ed276c399e');
    expect(
      verifyWebhookSignature(
        valid.replace('f917854937ea7650bf4f96ed276c399e', 'F917854937EA7650BF4F96ED276C399E'),
        KEY,
      ),
    ).not.toBeNull();
    expect(verifyWebhookSignature(valid, 'OTHER_KEY')).toBeNull();
    expect(verifyWebhookSignature(webhookBody(DOC_PAYLOAD, '0'.repeat(32)), KEY)).toBeNull();
    expect(
      verifyWebhookSignature(webhookBody(DOC_PAYLOAD, '483c4fa0861ca3dd6a6990c271c6910b'), KEY),
    ).toBeNull();
    expect(verifyWebhookSignature(phpJsonEncode(DOC_PAYLOAD), KEY)).toBeNull();
    expect(verifyWebhookSignature(valid.replace('"10.00"', '"1000.00"'), KEY)).toBeNull();
    expect(verifyWebhookSignature(`${valid} trailing`, KEY)).toBeNull();
    expect(verifyWebhookSignature('not json', KEY)).toBeNull();
    expect(verifyWebhookSignature('["f917854937ea7650bf4f96ed276c399e"]', KEY)).toBeNull();
    expect(verifyWebhookSignature('{"sign":12}', KEY)).toBeNull();
    expect(verifyWebhookSignature(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, KEY)).toBeNull();
  });
});

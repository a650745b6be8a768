import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Cryptomus signs with `md5_hex(base64(text) + apiKey)` (protocols.md D.2, D.7.1). For requests the text
 * is the exact body sent; for webhooks it is the PHP `json_encode($data, JSON_UNESCAPED_UNICODE)` of the
 * payload without `sign`, which the receiver must reproduce byte for byte from the body it got.
 */

/** `sign` of a request body, or of any text Cryptomus would sign. */
export function signBody(body: string, apiKey: string): string {
  return createHash('md5')
    .update(Buffer.from(body, 'utf8').toString('base64') + apiKey)
    .digest('hex');
}

/**
 * A number exactly as it was written in received JSON. Re-encoding prints it verbatim: the text PHP wrote
 * in the body is the text PHP signed, whereas re-printing the parsed value could differ (PHP's big ints,
 * PHP's float exponents).
 */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

export interface PhpJsonOptions {
  /** Plain `json_encode` (without JSON_UNESCAPED_UNICODE): every non-ASCII UTF-16 unit as `\uxxxx`. */
  escapeUnicode?: boolean;
}

const NON_ASCII = /[\u0080-\uffff]/g;
const NON_ASCII_TEST = /[\u0080-\uffff]/;
const hexEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON.stringify already matches PHP for quotes, backslashes, \b \f \n \r \t and `\u00xx` for other
 * control characters (lowercase hex in both). PHP additionally escapes every `/`, and U+2028/U+2029 even
 * with JSON_UNESCAPED_UNICODE (PHP >= 7.1, unless JSON_UNESCAPED_LINE_TERMINATORS).
 */
function phpEncodeString(value: string, escapeUnicode: boolean): string {
  const encoded = JSON.stringify(value)
    .replaceAll('/', '\\/')
    .replace(/[\u2028\u2029]/g, hexEscape);
  // Astral characters are two UTF-16 units and come out as a surrogate pair, exactly as PHP writes them.
  return escapeUnicode ? encoded.replace(NON_ASCII, hexEscape) : encoded;
}

/**
 * PHP prints integers as plain digits, like JS. Floats (serialize_precision -1) get the same shortest
 * round-trip digits as JS, but PHP's php_gcvt switches to exponent form when the decimal point position
 * is below -3 or above 17 and always writes a fraction there: 0.00001 is `1.0e-5` (JS `0.00001`), 1e17 is
 * `1.0e+17` (JS `100000000000000000`), 1e21 is `1.0e+21` (JS `1e+21`). A float with a zero fraction prints
 * without it (`10.0` is `10`, no JSON_PRESERVE_ZERO_FRACTION), so JS cannot tell and does not need to.
 */
function phpEncodeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError('json_encode cannot encode NaN or infinity');
  if (Number.isSafeInteger(value)) return String(value);
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const digits = mantissa.replace('-', '').replace('.', '');
  const exponent = Number(exponentText);
  const pointPosition = exponent + 1;
  const sign = value < 0 ? '-' : '';
  if (pointPosition < -3 || pointPosition > 17) {
    const fraction = digits.slice(1) || '0';
    return `${sign}${digits[0]}.${fraction}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (pointPosition <= 0) return `${sign}0.${'0'.repeat(-pointPosition)}${digits}`;
  if (digits.length <= pointPosition) return sign + digits.padEnd(pointPosition, '0');
  return `${sign}${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
}

/**
 * What PHP's `json_encode($value, JSON_UNESCAPED_UNICODE)` prints for the value: compact, keys in
 * insertion order, `/` escaped, non-ASCII raw (or `\uxxxx` with `escapeUnicode`). Plain objects and Maps
 * encode as JSON objects (a Map keeps numeric-looking keys in place, which a JS object would reorder),
 * arrays as lists, `JsonNumberText` verbatim; properties whose value is undefined are skipped like
 * JSON.stringify does. Anything else (dates, functions, NaN) is a TypeError.
 */
export function phpJsonEncode(value: unknown, options: PhpJsonOptions = {}): string {
  const escapeUnicode = options.escapeUnicode ?? false;
  const encode = (item: unknown): string => {
    if (item === null) return 'null';
    switch (typeof item) {
      case 'boolean':
        return String(item);
      case 'string':
        return phpEncodeString(item, escapeUnicode);
      case 'number':
        return phpEncodeNumber(item);
      case 'object':
        break;
      default:
        throw new TypeError(`json_encode cannot encode a ${typeof item}`);
    }
    if (item instanceof JsonNumberText) return item.text;
    if (Array.isArray(item)) return `[${item.map(encode).join(',')}]`;
    const entries =
      item instanceof Map ? [...item.entries()] : isPlainObject(item) ? Object.entries(item) : null;
    if (!entries) throw new TypeError(`json_encode cannot encode ${Object.prototype.toString.call(item)}`);
    const members = entries
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => `${phpEncodeString(String(key), escapeUnicode)}:${encode(member)}`);
    return `{${members.join(',')}}`;
  };
  return encode(value);
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `sign` of a webhook payload (without its own `sign`), as Cryptomus computes it. */
export function signWebhookPayload(payload: object, apiKey: string): string {
  return signBody(phpJsonEncode(payload), apiKey);
}

/** The body Cryptomus posts: the payload PHP-encoded with `sign` appended as the last key. */
export function encodeSignedWebhook(payload: Record<string, unknown>, apiKey: string): string {
  return phpJsonEncode({ ...payload, sign: signWebhookPayload(payload, apiKey) });
}

const WHITESPACE = /[ \t\n\r]*/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings must not hold raw control characters.
const STRING_TOKEN = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL_TOKEN = /true|false|null/y;
/** PHP's json_decode refuses deeper input too (depth 512); the limit also keeps the recursion safe. */
const MAX_DEPTH = 512;

/**
 * Strict JSON (RFC 8259) into values phpJsonEncode re-encodes exactly as PHP encoded them: objects as
 * Maps in document order, numbers as their text. Throws SyntaxError on anything else.
 */
function readJsonKeepingText(text: string): unknown {
  let position = 0;
  const fail = (): never => {
    throw new SyntaxError(`invalid JSON at position ${position}`);
  };
  const take = (pattern: RegExp): string | null => {
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (!match) return null;
    position = pattern.lastIndex;
    return match[0];
  };
  const skipWhitespace = () => take(WHITESPACE);
  const expect = (char: string) => {
    skipWhitespace();
    if (text[position] !== char) fail();
    position += 1;
  };
  const readString = () => JSON.parse(take(STRING_TOKEN) ?? fail()) as string;

  const readValue = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail();
    skipWhitespace();
    const char = text[position];
    if (char === '{' || char === '[') {
      position += 1;
      const closing = char === '{' ? '}' : ']';
      const object = new Map<string, unknown>();
      const list: unknown[] = [];
      skipWhitespace();
      if (text[position] === closing) {
        position += 1;
      } else {
        for (;;) {
          if (char === '{') {
            skipWhitespace();
            const key = readString();
            expect(':');
            object.set(key, readValue(depth + 1));
          } else {
            list.push(readValue(depth + 1));
          }
          skipWhitespace();
          const separator = text[position];
          position += 1;
          if (separator === closing) break;
          if (separator !== ',') fail();
        }
      }
      return char === '{' ? object : list;
    }
    if (char === '"') return readString();
    const literal = take(LITERAL_TOKEN);
    if (literal !== null) return JSON.parse(literal);
    return new JsonNumberText(take(NUMBER_TOKEN) ?? fail());
  };

  const value = readValue(0);
  skipWhitespace();
  if (position !== text.length) fail();
  return value;
}

const SIGN_PATTERN = /^[0-9a-f]{32}$/i;

function signMatches(text: string, apiKey: string, sign: string): boolean {
  return timingSafeEqual(Buffer.from(signBody(text, apiKey)), Buffer.from(sign));
}

/**
 * The payload (without `sign`) of a webhook body whose `sign` is right for the key; null when the body is
 * not a JSON object, has no well-formed `sign`, or the signature does not match (protocols.md D.7.1).
 */
export function verifyWebhookSignature(rawBody: string, apiKey: string): Record<string, unknown> | null {
  let tree: unknown;
  try {
    tree = readJsonKeepingText(rawBody);
  } catch {
    return null;
  }
  if (!(tree instanceof Map)) return null;
  const sign = tree.get('sign');
  if (typeof sign !== 'string' || !SIGN_PATTERN.test(sign)) return null;
  const unsigned = new Map(tree);
  unsigned.delete('sign');
  const expectedSign = sign.toLowerCase();
  const unicodeRaw = phpJsonEncode(unsigned);
  let valid = signMatches(unicodeRaw, apiKey, expectedSign);
  // Plain json_encode writes non-ASCII as \uxxxx; should a sender sign that way, the fallback still matches.
  if (!valid && NON_ASCII_TEST.test(unicodeRaw)) {
    valid = signMatches(phpJsonEncode(unsigned, { escapeUnicode: true }), apiKey, expectedSign);
  }
  if (!valid) return null;
  const payload = JSON.parse(rawBody) as Record<string, unknown>;
  delete payload.sign;
  return payload;
}

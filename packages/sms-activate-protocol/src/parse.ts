/**
 * One reader for every answer of an SMS-Activate-compatible `handler_api.php`, whichever style the
 * provider speaks (docs/protocols.md A.2.1): classic HTTP 200 text tokens, JSON bodies, rent-style
 * `{status:'error', message}` and Hero-style HTTP status + `{title, details, info}`.
 */
export type ProviderAnswer =
  /** HTTP 204, or 2xx with nothing in it (Hero's finishActivation / cancelActivation). */
  | { type: 'empty' }
  /** A plain-text token on a 2xx answer: a success (`ACCESS_NUMBER`) or an error (`NO_NUMBERS`); the caller decides. */
  | { type: 'token'; token: string; payload: string | undefined }
  | { type: 'json'; value: unknown }
  /** An answer that says it is an error: an error envelope, or a token on a 4xx/5xx status. */
  | { type: 'error'; token: string; payload: string | undefined; httpStatus: number };

const TOKEN_PATTERN = /^[A-Z][A-Z0-9_]*$/;
const QUOTE_PAIR = /^(["'])([\s\S]*)\1$/;

function cleanBody(body: string): string {
  const trimmed = body.replace(/^\uFEFF/, '').trim();
  const quoted = QUOTE_PAIR.exec(trimmed);
  return quoted ? quoted[2]!.trim() : trimmed;
}

/** `TOKEN` or `TOKEN:payload`, split on the first colon only: `STATUS_OK:12:34` carries the code `12:34`. */
function splitToken(text: string): { token: string; payload: string | undefined } | undefined {
  const colon = text.indexOf(':');
  const token = colon === -1 ? text : text.slice(0, colon);
  if (!TOKEN_PATTERN.test(token)) return undefined;
  return { token, payload: colon === -1 ? undefined : text.slice(colon + 1) };
}

function stringOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Hero puts the interesting part of some errors in `info`: the minimum price, the end of a ban. */
function heroPayload(info: unknown): string | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  const fields = info as Record<string, unknown>;
  return stringOf(fields.min) ?? stringOf(fields.readable_date) ?? stringOf(fields.banned_until);
}

function errorEnvelope(value: unknown, httpStatus: number): ProviderAnswer | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const title = stringOf(fields.title);
  if (title !== undefined && (httpStatus >= 400 || 'details' in fields)) {
    const split = splitToken(title);
    return {
      type: 'error',
      token: split?.token ?? title,
      payload: split?.payload ?? heroPayload(fields.info),
      httpStatus,
    };
  }
  if (fields.status === 'error' || fields.status === 'false' || fields.status === false) {
    const message = stringOf(fields.message) ?? stringOf(fields.error) ?? stringOf(fields.msg) ?? 'ERROR';
    const split = splitToken(message);
    return { type: 'error', token: split?.token ?? message, payload: split?.payload, httpStatus };
  }
  return undefined;
}

/**
 * Refusals some providers of the family write as sentences instead of tokens (Grizzly), each with the
 * token it stands for: without this they read as garbage, and a refused buy as one of unknown outcome.
 */
const REFUSAL_SENTENCES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^the service is prohibited for sale by (the )?administration\.?$/i, 'SERVICE_PROHIBITED'],
];

/** Undefined when the answer is unreadable (HTML, garbage, a 5xx page): the outcome of the call is unknown. */
export function parseAnswer(httpStatus: number, body: string): ProviderAnswer | undefined {
  const text = cleanBody(body);
  if (text === '') return httpStatus < 300 ? { type: 'empty' } : undefined;
  if (text.startsWith('{') || text.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const envelope = errorEnvelope(value, httpStatus);
    if (envelope) return envelope;
    return httpStatus < 300 ? { type: 'json', value } : undefined;
  }
  const sentence = REFUSAL_SENTENCES.find(([pattern]) => pattern.test(text));
  const split = sentence ? { token: sentence[1], payload: undefined } : splitToken(text);
  if (!split) return undefined;
  return httpStatus < 300 ? { type: 'token', ...split } : { type: 'error', ...split, httpStatus };
}

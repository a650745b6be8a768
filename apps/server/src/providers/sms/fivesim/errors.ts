import type { CallMode } from '../sms-activate/errors';
import { upstreamMessages } from '../sms-activate/errors';
import { UpstreamError, type UpstreamErrorKind } from '../types';

interface Meaning {
  kind: UpstreamErrorKind;
  message: string;
}

const unavailableToUsers = (kind: UpstreamErrorKind): Meaning => ({
  kind,
  message: upstreamMessages.temporarilyUnavailable,
});
const gone: Meaning = { kind: 'not_found', message: upstreamMessages.activationGone };

/**
 * 5sim's error sentences (docs/protocols.md B.5), lower case, normally with HTTP 400. Every one is a
 * refusal: the request did nothing, so a purchase refused with one of them may go to the next provider.
 */
const SENTENCES: ReadonlyArray<readonly [string, Meaning]> = [
  ['no free phones', { kind: 'no_numbers', message: upstreamMessages.noNumbers }],
  ['not enough user balance', unavailableToUsers('no_balance')],
  ['not enough rating', unavailableToUsers('account_blocked')],
  ['country is incorrect', { kind: 'bad_request', message: upstreamMessages.badCountry }],
  ['bad country', { kind: 'bad_request', message: upstreamMessages.badCountry }],
  ['select country', { kind: 'bad_request', message: upstreamMessages.badCountry }],
  ['bad operator', { kind: 'bad_request', message: upstreamMessages.badOperator }],
  ['select operator', { kind: 'bad_request', message: upstreamMessages.badOperator }],
  ['product is incorrect', { kind: 'bad_request', message: upstreamMessages.badService }],
  ['no product', { kind: 'bad_request', message: upstreamMessages.badService }],
  ['order not found', gone],
  ['record not found', gone],
  ['order expired', gone],
  ['order has sms', { kind: 'cannot_cancel', message: upstreamMessages.codeReceived }],
  ['order no sms', { kind: 'bad_request', message: upstreamMessages.refused }],
  ['hosting order', { kind: 'bad_request', message: upstreamMessages.refused }],
  ['you need to wait time', { kind: 'early_cancel_denied', message: upstreamMessages.earlyCancel }],
  ['server offline', { kind: 'provider_error', message: upstreamMessages.internalError }],
  ['internal error', { kind: 'provider_error', message: upstreamMessages.internalError }],
];

/** The error a 5sim answer stands for: its sentence, else its HTTP status. */
export function fiveSimError(httpStatus: number, body: string, mode: CallMode): UpstreamError {
  const text = body.trim().toLowerCase();
  const known = SENTENCES.find(([sentence]) => text.includes(sentence));
  if (known) {
    const [sentence, meaning] = known;
    // "server offline" and "internal error" are the provider failing: a buy's outcome is then unknown.
    const unknown = mode === 'write' && meaning.kind === 'provider_error';
    return new UpstreamError(meaning.kind, sentence, meaning.message, unknown);
  }
  if (httpStatus === 401 || httpStatus === 403)
    return new UpstreamError('configuration', `HTTP_${httpStatus}`, upstreamMessages.temporarilyUnavailable);
  // Rate limits (429, and 503 for the per-address one) refuse the request before it runs.
  if (httpStatus === 429 || httpStatus === 503)
    return new UpstreamError('provider_error', `HTTP_${httpStatus}`, upstreamMessages.temporarilyUnavailable);
  if (httpStatus >= 500)
    return new UpstreamError(
      'provider_error',
      `HTTP_${httpStatus}`,
      upstreamMessages.internalError,
      mode === 'write',
    );
  // Another 4xx sentence we do not know: 5sim answers errors with 400 before doing anything.
  return new UpstreamError('bad_request', `HTTP_${httpStatus}`, upstreamMessages.refused);
}

import { type AppError, fail } from '../../lib/errors';
import { UpstreamError } from '../../providers/sms/types';

/**
 * Turns an upstream failure into the answer the user gets; the money is already back by then. What the
 * provider refuses about the order itself (no numbers, a wrong choice, a cancel it does not allow, an order
 * it no longer has) is the order's state, a 409; only its own trouble is a 503 (the codes' statuses in the
 * contract's error catalogue).
 */
export function upstreamFailure(error: UpstreamError): AppError {
  return fail(`upstream_${error.kind}`, error.userMessage);
}

/** An upstream failure as the user's answer; anything else unchanged. */
export function asUserFailure(error: unknown): unknown {
  return error instanceof UpstreamError ? upstreamFailure(error) : error;
}

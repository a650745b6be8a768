import { AppError } from '../../lib/errors';
import { UpstreamError } from '../../providers/sms/types';

/**
 * Turns an upstream failure into the answer the user gets; the money is already back by then. What the
 * provider refuses about the order itself (no numbers, a wrong choice, a cancel it does not allow, an order
 * it no longer has) is the order's state, a 409; only its own trouble is a 503.
 */
export function upstreamFailure(error: UpstreamError): AppError {
  switch (error.kind) {
    case 'no_numbers':
    case 'bad_request':
    case 'cannot_cancel':
    case 'early_cancel_denied':
    case 'not_found':
      return new AppError(409, error.userMessage, `upstream_${error.kind}`);
    default:
      return new AppError(503, error.userMessage, `upstream_${error.kind}`);
  }
}

/** An upstream failure as the user's answer; anything else unchanged. */
export function asUserFailure(error: unknown): unknown {
  return error instanceof UpstreamError ? upstreamFailure(error) : error;
}

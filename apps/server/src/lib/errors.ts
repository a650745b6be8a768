import { generalMessages, sessionMessages } from '@simcode/contract';

/**
 * An error whose message is safe to show to the user. Anything else that reaches the error handler is
 * answered with a generic 500 text and logged with the request id.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Stable machine-readable code for logs and tests; the message is for people. */
    readonly code: string = 'error',
    /** Fields a client acts on, beside the message (the new price of a `price_changed`). */
    readonly details?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The one error body of the API. */
export function errorBody(code: string, message: string, details?: Record<string, string | number>) {
  return { ...details, success: false as const, error: message, code };
}

export const badRequest = (message: string, code = 'bad_request') => new AppError(400, message, code);
export const unauthorized = (message: string = sessionMessages.unauthorized) =>
  new AppError(401, message, 'unauthorized');
export const forbidden = (message: string = sessionMessages.forbidden) =>
  new AppError(403, message, 'forbidden');
export const notFound = (message: string = generalMessages.notFound) =>
  new AppError(404, message, 'not_found');
export const conflict = (message: string, code = 'conflict') => new AppError(409, message, code);
export const tooManyRequests = (message: string = generalMessages.tooManyRequests) =>
  new AppError(429, message, 'rate_limited');
/** The upstream provider failed or is unreachable: our request was fine, theirs was not. */
export const badGateway = (message: string, code = 'upstream_error') => new AppError(502, message, code);
export const serviceUnavailable = (message: string, code = 'unavailable') => new AppError(503, message, code);

/** PostgreSQL's unique_violation, whichever driver raised it (drizzle wraps the driver error in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause];
  return candidates.some((candidate) => {
    const pgError = candidate as { code?: string; constraint?: string } | null;
    return pgError?.code === '23505' && (constraint === undefined || pgError.constraint === constraint);
  });
}

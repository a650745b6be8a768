import { type ErrorCode, errorCatalogue, errorText } from '@simcode/contract';

/**
 * A refusal the user may read. Its code (packages/contract errors.ts) decides the HTTP status and the text,
 * unless the place that refuses gives a more precise text from the catalogue. Anything else that reaches
 * the error handler is answered with a generic 500 text and logged with the request id.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    /** A text of the catalogue in the current language; the code's own text when absent. */
    text?: string,
    /** Fields a client acts on, beside the message (the new price of a `price_changed`). */
    readonly details?: Record<string, string | number>,
  ) {
    super(text ?? errorText(code));
    this.name = 'AppError';
    this.statusCode = errorCatalogue[code].status;
  }
}

/** The one way to refuse: `fail('out_of_stock')`, or with a more precise text and the fields a client acts on. */
export const fail = (code: ErrorCode, text?: string, details?: Record<string, string | number>) =>
  new AppError(code, text, details);

/** The one error body of the API. */
export function errorBody(code: ErrorCode, message: string, details?: Record<string, string | number>) {
  return { ...details, success: false as const, error: message, code };
}

export const unauthorized = (text?: string) => fail('unauthorized', text);
export const forbidden = (text?: string) => fail('forbidden', text);
export const notFound = (text?: string) => fail('not_found', text);
export const tooManyRequests = (text?: string) => fail('rate_limited', text);

/** PostgreSQL's unique_violation, whichever driver raised it (drizzle wraps the driver error in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause];
  return candidates.some((candidate) => {
    const pgError = candidate as { code?: string; constraint?: string } | null;
    return pgError?.code === '23505' && (constraint === undefined || pgError.constraint === constraint);
  });
}

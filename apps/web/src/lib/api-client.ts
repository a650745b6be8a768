import { generalMessages, isSessionEndingError } from '@simcode/contract';
import { endSession, getToken } from '@/features/auth/session';

/** A failed API call, carrying the text to show the user. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Shown when the server gives no error text (the spec names one per action). */
  fallbackError?: string;
  signal?: AbortSignal;
}

/**
 * Calls the API with the stored token. Resolves with the JSON body of a successful answer; rejects with
 * an ApiError holding the server's error text or the fallback. 'Unauthorized' and 'Invalid token' end
 * the session and send the browser to /login, as the spec requires.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, fallbackError = generalMessages.genericError, signal } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(fallbackError, 0);
  }

  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    throw new ApiError(generalMessages.unexpectedServerError, response.status);
  }
  const errorText = (payload as { error?: unknown } | null)?.error;
  const error = typeof errorText === 'string' && errorText ? errorText : undefined;
  if (isSessionEndingError(error)) {
    endSession();
    throw new ApiError(error!, response.status);
  }
  const failed = !response.ok || (payload as { success?: unknown } | null)?.success === false;
  if (failed) throw new ApiError(error ?? fallbackError, response.status);
  return payload as T;
}

export function errorMessage(error: unknown, fallback: string = generalMessages.genericError): string {
  return error instanceof ApiError ? error.message : fallback;
}

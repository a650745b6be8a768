import {
  currentLanguage,
  type ErrorCode,
  generalMessages,
  isErrorCode,
  isSessionEndingError,
  isSessionEndReason,
  LANGUAGE_TAGS,
} from '@simcode/contract';
import { endSession, getToken } from './session';

/** A failed API call, carrying the text to show the user. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The answer's machine-readable `code` ('price_changed'), when it had one of the catalogue's. */
    readonly code?: ErrorCode,
    /** The answer's whole body: the fields a page acts on beside the text (`price`, `ticket_id`). */
    readonly body: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A query string's parameters; those undefined or null are left out. */
type QueryParams = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** A path with its query string: `withQuery(apiPaths.numbers.list, { state: 'live' })`. */
export function withQuery(path: string, query: QueryParams): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The query string's parameters, added to the path. */
  query?: QueryParams;
  body?: unknown;
  /** Shown when the server gives no error text (the spec names one per action). */
  fallbackError?: string;
  signal?: AbortSignal;
}

/**
 * Calls the API with the stored token. Resolves with the JSON body of a successful answer; rejects with
 * an ApiError holding the server's error text or the fallback. 'Unauthorized' and 'Invalid token' end
 * the session and send the browser to /login, as the spec requires; they are told by the answer's code,
 * since their text is in the UI's language, which every request asks the server to answer in.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, fallbackError = generalMessages.genericError, signal } = options;
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': LANGUAGE_TAGS[currentLanguage()],
  };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(query ? withQuery(path, query) : path, {
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
  const answer = payload as { success?: unknown; error?: unknown; code?: unknown; reason?: unknown } | null;
  const error = typeof answer?.error === 'string' && answer.error ? answer.error : undefined;
  if (isSessionEndingError(answer)) {
    endSession(isSessionEndReason(answer?.reason) ? answer.reason : undefined);
    throw new ApiError(error ?? generalMessages.genericError, response.status);
  }
  const failed = !response.ok || answer?.success === false;
  if (failed) {
    const code = isErrorCode(answer?.code) ? answer.code : undefined;
    throw new ApiError(error ?? fallbackError, response.status, code, answer ?? {});
  }
  return payload as T;
}

export function errorMessage(error: unknown, fallback: string = generalMessages.genericError): string {
  return error instanceof ApiError ? error.message : fallback;
}

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  API_V1_PREFIX,
  type ErrorCode,
  errorCatalogue,
  errorText,
  localizeEnglish,
  validationMessages,
  wireErrorTexts,
} from '@simcode/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, errorBody } from './errors';
import { inLanguageOf } from './request-language';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

const CONTEXT_WORDS: Record<string, () => string> = {
  body: () => validationMessages.theBody,
  querystring: () => validationMessages.theQuery,
  params: () => validationMessages.theAddress,
  headers: () => validationMessages.theHeaders,
};

/**
 * 'Invalid request: idempotency key must be at least 8 characters long.' The field comes from the schema
 * (zod strips unknown keys, so no key of the request is named) and the message from the schema or
 * `wireErrorTexts`: nothing the client sent is echoed.
 */
function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const first = issues[0];
  const pathFromIssue = first?.params?.issue?.path;
  const segments = pathFromIssue ?? first?.instancePath?.split('/').filter(Boolean) ?? [];
  const field = segments
    .map((segment) =>
      typeof segment === 'number'
        ? validationMessages.item(segment + 1)
        : String(segment).replaceAll('_', ' '),
    )
    .join(' ');
  const where = field || CONTEXT_WORDS[context ?? '']?.() || validationMessages.theRequest;
  return validationMessages.invalidRequest(where, first?.message ?? validationMessages.isInvalid);
}

/** Fastify's own client errors, by its error code: the code we answer with. */
const FASTIFY_CLIENT_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_BAD_URL: 'bad_url',
};

/** Any other client error, by status: Fastify's and its plugins' own messages may quote the request. */
const CLIENT_ERRORS_BY_STATUS: Record<number, ErrorCode> = {
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'body_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** A code's own answer, in the current language. */
function answerOf(code: ErrorCode): { status: number; code: ErrorCode; message: string } {
  return { status: errorCatalogue[code].status, code, message: errorText(code) };
}

/** What an error answers: its status, its code, its sentence in the request's language, and any details. */
export interface ErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, string | number>;
}

/**
 * Decides what any failure answers, in the request's language; used by the error handler and for router
 * errors (which come before any hook), and by the JSON API, which words the same answer as a problem.
 */
export function describeError(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  return inLanguageOf(request, () => describeInLanguage(error, request));
}

function describeInLanguage(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  if (error instanceof AppError) {
    if (error.statusCode >= 500) request.log.warn({ err: error }, 'request failed');
    // A sentence made before the request had a language (a provider's refusal) is still in English.
    return {
      status: error.statusCode,
      code: error.code,
      message: localizeEnglish(error.message),
      details: error.details,
    };
  }
  if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
    const text = describeValidation(error.validationContext, error.validation ?? []);
    return { ...answerOf('invalid_request'), message: text };
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    return answerOf('internal_error');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = (error.code && FASTIFY_CLIENT_ERRORS[error.code]) || CLIENT_ERRORS_BY_STATUS[status];
    // The status Fastify decided stays (a 400 of a plugin is not a 413 because its code is unknown).
    return { ...answerOf(code ?? 'invalid_request'), status };
  }
  request.log.error({ err: error }, 'unhandled error');
  return answerOf('internal_error');
}

/**
 * Answers any failure with the one error body, in the request's language. The JSON API (`/api/v1`) words it
 * as an RFC 9457 problem (`application/problem+json`), with the problem's members beside `success`, `error`
 * and `code`; `type` points at the code's entry in the API reference.
 */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, accept-language` : 'accept-language');
  const answer = describeError(error, request);
  const body = errorBody(answer.code, answer.message, answer.details);
  if (!request.url.startsWith(`${API_V1_PREFIX}/`)) return reply.code(answer.status).send(body);
  return reply
    .code(answer.status)
    .type('application/problem+json; charset=utf-8')
    .send({
      type: `/docs/api#error-${answer.code}`,
      title: STATUS_CODES[answer.status] ?? 'Error',
      status: answer.status,
      detail: answer.message,
      ...body,
    });
}

/** Node's own refusals of a request it could not parse, before any request object exists. */
const PARSER_REFUSALS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/**
 * Answers what Node's parser refused (a malformed request line, a NUL in a header, headers too large, a
 * request that took too long) in the one error body, then closes the connection: Fastify's `clientError`
 * handler, which would otherwise answer in its own shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, code, message } = answerOf(PARSER_REFUSALS[error.code ?? ''] ?? 'malformed_request');
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * One place turns every failure into `{ success: false, error, code }`: known errors keep their text and
 * status, unknown ones are logged with the request id and answered with a generic 500 text.
 */
export function installErrorHandler(app: FastifyInstance): void {
  // Checks a schema did not word itself answer in the same plain sentences as the ones it did.
  z.config({ customError: wireErrorTexts });
  app.setErrorHandler(answerError);
}

/**
 * Node would answer a request without Host with an empty 400 of its own (requireHostHeader is off:
 * lib/connection-limits.ts); it is refused here, in the API's shape and the request's language. True when
 * it was (called by the request hook of app/build-app.ts).
 */
export function refusedWithoutHost(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.headers.host !== undefined || request.raw.httpVersion !== '1.1') return false;
  const { status, code, message } = answerOf('missing_host');
  reply.code(status).send(errorBody(code, message));
  return true;
}

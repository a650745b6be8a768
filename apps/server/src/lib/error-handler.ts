import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  API_V1_PREFIX,
  generalMessages,
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

type GeneralText = Exclude<keyof typeof generalMessages, 'tooManyRequestsIn'>;

/**
 * Fastify's own client errors: the code we answer, and the sentence's key (read per answer, in its
 * language).
 */
const FASTIFY_CLIENT_ERRORS: Record<string, [code: string, text: GeneralText]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', 'bodyTooLarge'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'invalidJson'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'invalidJson'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'unsupportedMediaType'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'invalidRequest'],
  FST_ERR_BAD_URL: ['bad_url', 'badUrl'],
};

/** Any other client error, by status: Fastify's and its plugins' own messages may quote the request. */
const CLIENT_ERRORS_BY_STATUS: Record<number, [code: string, text: GeneralText]> = {
  404: ['not_found', 'notFound'],
  405: ['method_not_allowed', 'methodNotAllowed'],
  408: ['request_timeout', 'requestTimeout'],
  413: ['body_too_large', 'bodyTooLarge'],
  414: ['uri_too_long', 'uriTooLong'],
  415: ['unsupported_media_type', 'unsupportedMediaType'],
  429: ['rate_limited', 'tooManyRequests'],
};

/** What an error answers: its status, its code, its sentence in the request's language, and any details. */
export interface ErrorAnswer {
  status: number;
  code: string;
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
    return { status: 400, code: 'invalid_request', message: text };
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    return { status: 500, code: 'internal_error', message: generalMessages.genericError };
  }
  const status = error.statusCode ?? 500;
  const known = (error.code && FASTIFY_CLIENT_ERRORS[error.code]) || CLIENT_ERRORS_BY_STATUS[status];
  if (status >= 400 && status < 500) {
    const [code, text] = known ?? ['invalid_request', 'invalidRequest'];
    return { status, code, message: generalMessages[text] };
  }
  request.log.error({ err: error }, 'unhandled error');
  return { status: 500, code: 'internal_error', message: generalMessages.genericError };
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
const PARSER_REFUSALS: Record<string, [status: number, code: string, text: GeneralText]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'headersTooLarge'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'requestTimeout'],
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
  const [status, code, text] = PARSER_REFUSALS[error.code ?? ''] ?? [
    400,
    'malformed_request',
    'malformedRequest',
  ];
  const body = JSON.stringify(errorBody(code, generalMessages[text]));
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
  // Node would answer a request without Host with an empty 400 of its own (requireHostHeader is off:
  // lib/connection-limits.ts); it is refused here, in the API's shape.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      reply.code(400).send(errorBody('missing_host', generalMessages.missingHost));
      return;
    }
    done();
  });
}

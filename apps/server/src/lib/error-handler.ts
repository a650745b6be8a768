import { generalMessages } from '@simcode/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const first = issues[0];
  const pathFromIssue = first?.params?.issue?.path?.map(String).join('.');
  const field = pathFromIssue || first?.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  const where = field ? `${field} ` : context === 'body' ? 'body ' : '';
  return `Invalid request: ${where}${first?.message ?? 'is invalid'}.`.replace(/\.\.$/, '.');
}

/** Fastify's own client-error codes and the texts we answer them with. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: generalMessages.bodyTooLarge,
  FST_ERR_CTP_INVALID_JSON_BODY: generalMessages.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: generalMessages.invalidJson,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: generalMessages.invalidRequest,
};

/**
 * One place turns every failure into `{ success: false, error }`: known errors keep their text and status,
 * unknown ones are logged with the request id and answered with a generic 500 text.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.warn({ err: error }, 'request failed');
      return reply.code(error.statusCode).send({ success: false, error: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .code(400)
        .send({ success: false, error: describeValidation(error.validationContext, error.validation) });
    }
    if (error.validation) {
      return reply
        .code(400)
        .send({ success: false, error: describeValidation(error.validationContext, error.validation) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.code(500).send({ success: false, error: generalMessages.genericError });
    }
    const knownText = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    const status = error.statusCode ?? 500;
    if (knownText) return reply.code(status).send({ success: false, error: knownText });
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ success: false, error: error.message || generalMessages.invalidRequest });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ success: false, error: generalMessages.genericError });
  });
}

import type { FastifyBaseLogger } from 'fastify';

/** The part of the app's pino logger the SMS layer writes to; optional everywhere, so tests pass none. */
export type SmsLogger = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

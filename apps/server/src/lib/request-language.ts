import { AsyncLocalStorage } from 'node:async_hooks';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  loadSharedMessages,
  negotiateLanguage,
  setLanguageSource,
} from '@simcode/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language the request's answer is written in, from its Accept-Language header; null until read. */
    language: Language | null;
  }
}

/**
 * The language of the request being answered. The shared messages read it (`setLanguageSource`), so an
 * error or a success text built anywhere in a request's work is in that request's language; outside a
 * request (jobs, start-up) it is English.
 */
const requestLanguage = new AsyncLocalStorage<Language>();

/** The language of the request being answered, or null outside a request (a job, start-up). */
export function requestLanguageOrNull(): Language | null {
  return requestLanguage.getStore() ?? null;
}

export function languageOf(request: FastifyRequest): Language {
  // A router error (a malformed address) is answered before any hook has run.
  return request.language ?? negotiateLanguage(request.headers['accept-language']);
}

/** Runs `work` in the language of `request`, wherever it is called from. */
export function inLanguageOf<T>(request: FastifyRequest, work: () => T): T {
  return requestLanguage.run(languageOf(request), work);
}

/**
 * Loads the Russian and Chinese messages and answers every request in its language. The store is entered
 * in callback style (`run(…, done)`), as @fastify/request-context does, so the whole lifecycle after the
 * hook inherits it, `app.inject` included; body parsing reads a stream whose events lose it, so it is
 * entered again before validation.
 */
export async function installRequestLanguage(app: FastifyInstance): Promise<void> {
  await Promise.all(LANGUAGES.map(loadSharedMessages));
  setLanguageSource(() => requestLanguage.getStore() ?? DEFAULT_LANGUAGE);
  app.decorateRequest('language', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const language = negotiateLanguage(request.headers['accept-language']);
    request.language = language;
    requestLanguage.run(language, () => done());
  });
  app.addHook('preValidation', (request, _reply, done) => {
    requestLanguage.run(languageOf(request), () => done());
  });
}

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

/** Runs `work` in `language` (a page whose address names its language). */
export function inLanguage<T>(language: Language, work: () => T): T {
  return requestLanguage.run(language, work);
}

/** Runs `work` in the language of `request`, wherever it is called from. */
export function inLanguageOf<T>(request: FastifyRequest, work: () => T): T {
  return requestLanguage.run(languageOf(request), work);
}

/**
 * Reads the request's language from its Accept-Language header and runs `next` (the rest of the request's
 * lifecycle) in it. Called by the request hook of app/build-app.ts in callback style, as
 * @fastify/request-context enters its store, so the whole lifecycle after the hook inherits it,
 * `app.inject` included.
 */
export function enterRequestLanguage(request: FastifyRequest, next: () => void): void {
  const language = negotiateLanguage(request.headers['accept-language']);
  request.language = language;
  requestLanguage.run(language, next);
}

/**
 * Loads the Russian and Chinese messages and has the shared messages read the request's language. Body
 * parsing reads a stream whose events lose the language entered on the request line, so it is entered
 * again before validation.
 */
export async function installRequestLanguage(app: FastifyInstance): Promise<void> {
  await Promise.all(LANGUAGES.map(loadSharedMessages));
  setLanguageSource(() => requestLanguage.getStore() ?? DEFAULT_LANGUAGE);
  app.decorateRequest('language', null);
  app.addHook('preValidation', (request, _reply, done) => {
    requestLanguage.run(languageOf(request), () => done());
  });
}

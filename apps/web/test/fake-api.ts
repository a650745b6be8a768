// The one stand-in for the HTTP API in the web app's component tests: routes answer from in-memory state,
// and every answer the contract describes is parsed with the contract's schema of it, so a fake that drifts
// from what the server sends fails the test that uses it.
import { errorResponseSchema } from '@simcode/contract';
import { vi } from 'vitest';
import type { z } from 'zod';

/** An answer: its status and its JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

/** A successful answer, its body parsed with the contract's schema of it (what the page reads is that). */
export function ok<Schema extends z.ZodType>(schema: Schema, body: z.input<Schema>, status = 200): Answer {
  return { status, body: schema.parse(body) };
}

/** A refusal in the API's one error shape; `details` are the fields a page acts on (`code`, `price`). */
export function refuse(status: number, error: string, details: Record<string, unknown> = {}): Answer {
  return { status, body: { ...errorResponseSchema.parse({ success: false, error }), ...details } };
}

/** An answer the contract does not describe, on purpose: a crashed server's body, a body without text. */
export function unchecked(status: number, body: unknown): Answer {
  return { status, body };
}

/** A call as the fake received it. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The JSON body sent, parsed; undefined without one. */
  body: Record<string, unknown> | undefined;
  /** The groups of the route's pattern that matched: the path's parameters. */
  params: string[];
}

interface FakeRoute {
  /** `'GET /api/account'`, or a pattern over `'<METHOD> <path>'` whose groups are the path's parameters. */
  pattern: string | RegExp;
  respond(request: FakeRequest): Answer;
}

export const route = (pattern: FakeRoute['pattern'], respond: FakeRoute['respond']): FakeRoute => ({
  pattern,
  respond,
});

const NETWORK = 'network';
type Scripted = Answer | typeof NETWORK;

export function createFakeApi(routes: FakeRoute[] = []) {
  const calls: FakeRequest[] = [];
  const failures: Array<{ method: string; path: RegExp; answer: Scripted }> = [];
  const scripted: Scripted[] = [];

  function answerOf(request: FakeRequest): Scripted {
    const failure = failures.findIndex(
      (entry) => entry.method === request.method && entry.path.test(request.path),
    );
    if (failure >= 0) return failures.splice(failure, 1)[0]!.answer;
    if (scripted.length > 0) return scripted.shift()!;
    const line = `${request.method} ${request.path}`;
    for (const { pattern, respond } of routes) {
      const match = typeof pattern === 'string' ? (pattern === line ? [line] : null) : pattern.exec(line);
      if (match) return respond({ ...request, params: match.slice(1) });
    }
    return refuse(404, `No fake answers ${line}.`);
  }

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://app.test');
    const request: FakeRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      params: [],
    };
    calls.push(request);
    const answer = answerOf(request);
    if (answer === NETWORK) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });

  return {
    fetch,
    calls,
    /** The calls that change something. */
    writes: () => calls.filter((call) => call.method !== 'GET'),
    /** Makes the next call matching the method and path answer this, or fail as a lost network would. */
    failNext(method: string, path: RegExp, answer: Scripted) {
      failures.push({ method, path, answer });
    },
    /** The next call, whatever it is, answers this (or fails as a lost network would), in order. */
    answerNext(answer: Scripted) {
      scripted.push(answer);
    },
  };
}

export type FakeApi = ReturnType<typeof createFakeApi>;

/** A token whose payload carries the role, as the server's do (the signature is never checked here). */
export function fakeToken(role: number): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replaceAll('=', '');
  return `${encode({ alg: 'HS256' })}.${encode({ sub: '1', role })}.signature`;
}

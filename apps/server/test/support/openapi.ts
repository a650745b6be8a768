import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client';
import type { TestApp } from './app';

/** A JSON Schema as @fastify/swagger writes it (the parts these tests read). */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI path, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
  /** `METHOD /path`, for messages and the lists below. */
  name: string;
}

/**
 * Operations anyone may call: signing in, the captcha, the public delivery index (open data), and the
 * upstreams' own protocols (the payment webhook is verified by its signature; the SMS simulator and payment
 * sandbox, and the Telegram Bot API stand-in, are the built-in upstreams).
 */
export const PUBLIC_OPERATIONS = new Set([
  'POST /api/auth/login',
  'POST /api/auth/register',
  'POST /api/auth/login/two-factor',
  'POST /api/auth/password/forgot',
  'POST /api/auth/password/reset',
  'POST /api/auth/email/confirm',
  'POST /api/auth/email/revert',
  'GET /api/captcha/challenge',
  'POST /api/topup/{provider}/webhook',
  'GET /api/v1/stats',
  'GET /api/v1/stats.csv',
  'GET /api/v1/stats/{service}',
  'GET /api/v1/stats/country/{country}',
  'GET /api/v1/status',
  'GET /api/v1/prices/{service}',
]);
const UPSTREAM_PREFIXES = ['/sandbox/', '/simulator/', '/stand-ins/'];
const ADMIN_PREFIXES = ['/api/admin/', '/api/tickets/admin/'];

/** `key`: the JSON API, called with an API key rather than a session. */
export type Audience = 'public' | 'user' | 'admin' | 'key';

export function audienceOf(operation: Operation): Audience {
  if (PUBLIC_OPERATIONS.has(operation.name)) return 'public';
  if (operation.path.startsWith('/api/v1/')) return 'key';
  if (UPSTREAM_PREFIXES.some((prefix) => operation.path.startsWith(prefix))) return 'public';
  if (ADMIN_PREFIXES.some((prefix) => operation.path.startsWith(prefix))) return 'admin';
  return 'user';
}

interface OpenApiParameter {
  in: string;
  name: string;
  schema: JsonSchema;
}

/** Every operation of the app's OpenAPI description (hidden routes are the webhooks' and health's). */
export function operationsOf(t: TestApp): Operation[] {
  const document = t.app.swagger() as {
    paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: unknown }>>;
  };
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(byMethod)) {
      const parameters = operation.parameters ?? [];
      const body = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json']?.schema;
      const upper = method.toUpperCase() as Operation['method'];
      operations.push({
        method: upper,
        path,
        pathParams: parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name),
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({ name: parameter.name, schema: parameter.schema })),
        body,
        name: `${upper} ${path}`,
      });
    }
  }
  return operations;
}

/** The path with its placeholders filled (each value is URL-encoded here). */
export function fillPath(operation: Operation, values: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
}

/** A path parameter that takes a row id (digits) rather than an opaque upstream id. */
export function isNumericParam(name: string): boolean {
  return name === 'id' || name === 'userId';
}

/** A value of an id that exists nowhere, valid in form. */
export function unknownIdFor(name: string): string {
  return isNumericParam(name) ? '2147483647' : 'unknown-order-1';
}

/** What a refused request may never change: money, orders and tickets, counted and summed. */
export async function snapshotOfState(t: TestApp) {
  const [row] = await queryRows<Record<string, unknown>>(
    t.ctx.database.db,
    sql`select
      (select count(*) from users)::int as users,
      (select coalesce(sum(balance_cents), 0)::bigint from users)::text as balances,
      (select count(*) from ledger_entries)::int as ledger,
      (select count(*) from activations)::int as activations,
      (select count(*) from rents)::int as rents,
      (select count(*) from tickets)::int as tickets,
      (select count(*) from ticket_messages)::int as ticket_messages,
      (select count(*) from payments)::int as payments,
      (select string_agg(status || ':' || id, ',' order by id) from tickets) as ticket_states,
      (select string_agg(status || ':' || id, ',' order by id) from activations) as activation_states,
      (select string_agg(status || ':' || id, ',' order by id) from rents) as rent_states`,
  );
  return row;
}

/**
 * The API's one error shape, with a sentence and a code; the JSON API words it as an RFC 9457 problem, with
 * the problem's members beside these.
 */
export function expectErrorShape(body: unknown, context: string): void {
  const shape = {
    success: false,
    error: expect.stringMatching(/\S/),
    code: expect.stringMatching(/^[a-z_]+$/),
  };
  expect(body, context).toEqual(
    context.includes('/api/v1/')
      ? {
          ...shape,
          type: expect.stringContaining('#error-'),
          title: expect.stringMatching(/\S/),
          status: expect.any(Number),
          detail: expect.stringMatching(/\S/),
        }
      : shape,
  );
}

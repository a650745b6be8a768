import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUsersRepository } from '../../src/modules/users/repository';
import { closeTestApp, type TestApp } from '../support/app';
import {
  audienceOf,
  expectErrorShape,
  fillPath,
  type JsonSchema,
  type Operation,
  operationsOf,
  snapshotOfState,
  unknownIdFor,
} from '../support/openapi';
import { createApiKey } from '../support/reseller';
import { createListeningTestApp } from '../support/upstream';
import { createUser } from '../support/users';

/**
 * Malformed requests generated from the OpenAPI description, for every operation of the API: wrong types,
 * missing fields, huge and control-character strings, overflowing numbers, arrays for scalars, unknown ids
 * and prototype keys. None may answer 5xx, each refusal has the one error shape and echoes nothing, and
 * nothing of money, orders or tickets changes. The cases are enumerated, plus junk from a seeded generator,
 * so a failure replays exactly.
 */

const SEED = 20_261_124;
/** About 1,400 requests: seconds on an idle machine, more on a busy one; a bound, never an assertion. */
const LONG_TEST_MS = 180_000;
/** Strings carry it so an answer that quotes the request shows. */
const MARKER = 'echo-marker';

function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Random text that always holds a control character, so it is never acceptable input. */
function junkString(random: () => number, length: number): string {
  let text = `${MARKER}\u0001`;
  while (text.length < length) text += String.fromCharCode(Math.floor(random() * 0x3000));
  return text;
}

/** Values for a path or query parameter: none is a valid id, number or code that exists. */
const BAD_SCALARS = [
  '',
  '0',
  '-1',
  '1e3',
  '0x10',
  ' 1',
  '01',
  '99999999999',
  '9'.repeat(400),
  `${MARKER}\u0000`,
  `${MARKER}\u009f`,
  '__proto__',
  'constructor',
  '%',
  `${MARKER}' OR 1=1--`,
];

/** Values for a JSON body field, none of them acceptable where a field of this API stands. */
const BAD_JSON_VALUES: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  2 ** 53 + 1,
  '',
  `${MARKER}\u0000`,
  `${MARKER}\u009f`,
  `${MARKER}${'x'.repeat(30_000)}`,
  ['a'],
  { nested: MARKER },
];

/** Whole bodies that are not the object any route takes, or carry prototype keys. */
const BAD_RAW_BODIES = [
  '',
  'null',
  '[]',
  `"${MARKER}"`,
  '1',
  '{',
  '{"a":}',
  '{"__proto__":{"isAdmin":true,"role":1}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '[{}]',
  `${'['.repeat(500)}${']'.repeat(500)}`,
  `{"x":"${'y'.repeat(70 * 1024)}"}`,
];

/** A value of the right type for a field, so other fields' mutations reach deeper checks. */
function plausible(schema: JsonSchema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  return 'x';
}

interface Case {
  operation: Operation;
  url: string;
  body?: string;
  contentType?: string;
}

function pathWithUnknownIds(operation: Operation, override: Record<string, string> = {}) {
  return fillPath(operation, {
    ...Object.fromEntries(operation.pathParams.map((name) => [name, unknownIdFor(name)])),
    ...override,
  });
}

function casesFor(operation: Operation, random: () => number): Case[] {
  const basePath = pathWithUnknownIds(operation);
  // Unknown parameters, prototype keys and junk are ignored or refused by every operation.
  const cases: Case[] = [
    { operation, url: `${basePath}?unexpected=${encodeURIComponent(junkString(random, 30))}` },
    { operation, url: `${basePath}?__proto__[isAdmin]=true&constructor[prototype][role]=1` },
  ];
  for (const name of operation.pathParams) {
    for (const value of [...BAD_SCALARS, junkString(random, 40)]) {
      cases.push({ operation, url: pathWithUnknownIds(operation, { [name]: value }) });
    }
  }
  for (const { name } of operation.query) {
    for (const value of [...BAD_SCALARS, junkString(random, 60)]) {
      cases.push({ operation, url: `${basePath}?${name}=${encodeURIComponent(value)}` });
    }
    cases.push({ operation, url: `${basePath}?${name}=1&${name}=2` });
    cases.push({ operation, url: `${basePath}?${name}[]=1` });
    cases.push({ operation, url: `${basePath}?__proto__[${name}]=1&constructor[prototype][x]=1` });
  }
  // Every operation that reads a body (PUT too: the account's e-mail preferences).
  if (operation.method === 'POST' || operation.method === 'PUT') {
    const properties = operation.body?.properties ?? {};
    const plausibleBody = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, plausible(schema)]),
    );
    for (const name of Object.keys(properties)) {
      for (const value of [...BAD_JSON_VALUES, junkString(random, 200)]) {
        cases.push({ operation, url: basePath, body: JSON.stringify({ ...plausibleBody, [name]: value }) });
      }
      const { [name]: _missing, ...withoutIt } = plausibleBody;
      cases.push({ operation, url: basePath, body: JSON.stringify(withoutIt) });
    }
    for (const raw of BAD_RAW_BODIES) cases.push({ operation, url: basePath, body: raw });
    cases.push({ operation, url: basePath, body: 'a=1', contentType: 'application/x-www-form-urlencoded' });
  }
  return cases;
}

let t: TestApp;
beforeEach(async () => {
  // With the simulator's catalog loaded, so the catalog's routes judge their input rather than answer 503.
  t = await createListeningTestApp();
});
afterEach(async () => {
  await closeTestApp(t);
});

describe('malformed requests on every operation', () => {
  it(
    'never answer 5xx, always the one error shape without echo, and change nothing',
    async () => {
      const user = await createUser(t);
      const admin = await createUser(t, { admin: true });
      const leaver = await createUser(t);
      // The JSON API's caller: the user's API key, as a bearer token.
      const bot = { headers: { authorization: `Bearer ${(await createApiKey(t, user)).secret}` } };
      const users = createUsersRepository(t.ctx.database.db);
      const random = seededRandom(SEED);
      // The upstreams' own protocols (simulator, sandbox) answer in their protocols' shapes; the event stream
      // takes no input and never ends.
      const operations = operationsOf(t).filter(
        (operation) =>
          operation.path.startsWith('/api/') &&
          // Event streams stay open: they are not requests with an answer to judge.
          !['GET /api/dashboard/events', 'GET /api/v1/events'].includes(operation.name),
      );
      const cases = operations.flatMap((operation) => casesFor(operation, random));
      expect(cases.length).toBeGreaterThanOrEqual(1000);
      expect(new Set(cases.map((entry) => entry.operation.name)).size).toBe(operations.length);

      const before = await snapshotOfState(t);
      const statuses = new Map<number, number>();
      for (const entry of cases) {
        const audience = audienceOf(entry.operation);
        const caller =
          audience === 'admin' ? admin : audience === 'user' ? user : audience === 'key' ? bot : null;
        const headers: Record<string, string> = caller ? { ...caller.headers } : {};
        // Signing out ends the caller's tokens: those calls come from a user of their own, with a fresh token.
        if (entry.operation.path.startsWith('/api/auth/logout')) {
          const row = await users.findById(leaver.id);
          headers.authorization = `Bearer ${await t.ctx.auth.issueToken(row!)}`;
        }
        if (entry.body !== undefined) headers['content-type'] = entry.contentType ?? 'application/json';
        const response = await t.app.inject({
          method: entry.operation.method,
          url: entry.url,
          headers,
          ...(entry.body === undefined ? {} : { payload: entry.body }),
        });
        const context = `${entry.operation.name} ${entry.url.slice(0, 120)} ${String(entry.body).slice(0, 120)}`;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        // The callers' tokens stay good throughout: every refusal is about the input.
        if (caller) expect(response.statusCode, context).not.toBe(401);
        expect(response.statusCode, context).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expectErrorShape(response.json(), context);
          expect(response.body, context).not.toContain(MARKER);
        }
      }
      expect(await snapshotOfState(t)).toEqual(before);
      // Nearly every case is refused; the few that pass are reads (a list with a bad parameter ignored, a
      // console search for junk text that finds nothing) and body-less calls that ignore what they are sent.
      expect(statuses.get(200) ?? 0).toBeLessThan(cases.length / 10);
    },
    LONG_TEST_MS,
  );
});

import { randomUUID } from 'node:crypto';
import { TOKEN_LIFETIME_SECONDS } from '@simcode/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenService } from '../../src/modules/auth/tokens';
import { closeTestApp, type TestApp } from '../support/app';
import { fundUser } from '../support/money';
import {
  audienceOf,
  expectErrorShape,
  fillPath,
  type Operation,
  operationsOf,
  snapshotOfState,
  unknownIdFor,
} from '../support/openapi';
import { createInvoice, createPaymentsTestApp } from '../support/payments';
import { quietSimulator, rentedNumber } from '../support/rents';
import { anOffer } from '../support/upstream';
import { createUser } from '../support/users';

/**
 * Who may call what, for every operation of the OpenAPI description: a visitor, forged and revoked tokens,
 * a user on the administrators' operations, and another user on the owner's objects. Public operations are
 * the explicit list in support/openapi.ts.
 */

let t: TestApp;
/** About 300 requests: seconds on an idle machine, more on a busy one; a bound, never an assertion. */
const LONG_TEST_MS = 180_000;
beforeEach(async () => {
  // Listening, with the simulator's catalog and the payment sandbox, so the owner can hold real objects.
  t = await createPaymentsTestApp({
    SIMULATOR_SEED: '42',
    SIMULATOR_NO_SMS_RATE: '1',
    RATE_LIMIT_PURCHASES_PER_MINUTE: '1000',
  });
  if (!(await t.ctx.catalog.refreshFromUpstream())) throw new Error('the simulator catalog did not load');
});
afterEach(async () => {
  await closeTestApp(t);
});

/** A body that passes validation where an operation needs one, so only the caller decides the answer. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/tickets/{id}/messages': { content: 'Hello' },
  'POST /api/tickets/admin/tickets/{id}/messages': { content: 'Hello' },
  'POST /api/tickets/admin/tickets/{id}/status': { status: 'open' },
  'POST /api/dashboard/numbers/{id}/report': { kind: 'no_sms' },
  'POST /api/dashboard/rents/{order_id}/renew': { periodID: 24 },
  'POST /api/dashboard/rents/{order_id}/auto-renew': { enabled: false },
  'POST /api/admin/users/{id}/adjustments': { amount: 1, reason: 'matrix', idempotency_key: 'matrix-key' },
};

function call(operation: Operation, authorization: string | undefined, url?: string) {
  return t.app.inject({
    method: operation.method,
    url:
      url ??
      fillPath(operation, Object.fromEntries(operation.pathParams.map((name) => [name, unknownIdFor(name)]))),
    headers: authorization ? { authorization } : {},
    // A body that is wrong on purpose: the caller must be refused before it is read.
    ...(operation.method === 'POST' ? { payload: { wrong: true } } : {}),
  });
}

function unsignedToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

describe('authorization matrix', () => {
  it(
    'refuses visitors, forged, expired and revoked tokens on every protected operation',
    async () => {
      const operations = operationsOf(t);
      const protectedOperations = operations.filter((operation) => audienceOf(operation) !== 'public');
      expect(protectedOperations.length).toBeGreaterThan(30);
      const user = await createUser(t);
      const revoked = await createUser(t);
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: revoked.headers });
      const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
      const claims = { userId: user.id, role: 1, tokenVersion: 0, sessionId: randomUUID() };
      const forged = {
        'bad signature': await createTokenService('another-secret-of-at-least-32-characters!').sign(claims),
        'alg none': unsignedToken({
          sub: String(user.id),
          role: 1,
          ver: 0,
          jti: 'x',
          iat: nowSeconds,
          exp: nowSeconds + 60,
        }),
        expired: await createTokenService(t.config.JWT_SECRET).sign(
          claims,
          new Date(t.clock.now().getTime() - (TOKEN_LIFETIME_SECONDS + 60) * 1000),
        ),
        revoked: revoked.token,
        garbage: 'not-a-token',
      };
      const before = await snapshotOfState(t);
      for (const operation of protectedOperations) {
        const visitor = await call(operation, undefined);
        expect(visitor.statusCode, `visitor ${operation.name}`).toBe(401);
        const unauthorized = { success: false, error: 'Unauthorized', code: 'unauthorized' };
        // The JSON API words the same answer as a problem, with the problem's members beside it.
        if (audienceOf(operation) === 'key')
          expect(visitor.json(), operation.name).toMatchObject(unauthorized);
        else expect(visitor.json(), operation.name).toEqual(unauthorized);
        for (const [kind, token] of Object.entries(forged)) {
          const response = await call(operation, `Bearer ${token}`);
          expect(response.statusCode, `${kind} ${operation.name}`).toBe(401);
          expect(response.json(), `${kind} ${operation.name}`).toMatchObject({ error: 'Invalid token' });
        }
      }
      expect(await snapshotOfState(t)).toEqual(before);
    },
    LONG_TEST_MS,
  );

  it('answers 403 to a user on every administrator operation, before reading the body', async () => {
    const user = await createUser(t);
    const adminOperations = operationsOf(t).filter((operation) => audienceOf(operation) === 'admin');
    expect(adminOperations.length).toBeGreaterThanOrEqual(8);
    for (const operation of adminOperations) {
      const response = await call(operation, user.headers.authorization);
      expect(response.statusCode, operation.name).toBe(403);
      expectErrorShape(response.json(), operation.name);
    }
  });

  it("answers 404 to another user on every operation on the owner's objects, changing nothing", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t.ctx.database, stranger.id, 100_000);
    await quietSimulator(t);
    const ticket = (
      await t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: owner.headers,
        payload: { title: 'Mine', description: 'Only mine' },
      })
    ).json().ticket;
    await fundUser(t.ctx.database, owner.id, 100_000);
    const offer = anOffer(t);
    const number = (
      await t.app.inject({
        method: 'POST',
        url: '/api/dashboard/buy-number',
        headers: owner.headers,
        payload: { countryID: offer.countryId, service: offer.service },
      })
    ).json().number;
    const rent = await rentedNumber(t, owner);
    const topup = await createInvoice(t, owner, 10);

    /** The owner's object for each parameter, by where it stands. */
    function ownersValue(operation: Operation, name: string): string | undefined {
      if (operation.path.startsWith('/api/tickets/{id}')) return String(ticket.id);
      if (operation.path.startsWith('/api/dashboard/numbers/{id}')) return String(number.id);
      if (operation.path.startsWith('/api/dashboard/rents/{id}')) return String(rent.id);
      if (name === 'number_id') return number.number_id;
      if (name === 'order_id' && operation.path.startsWith('/api/dashboard/')) return rent.order_id!;
      if (name === 'order_id' && operation.path.startsWith('/api/topup/')) return topup.orderId;
      return undefined;
    }

    const ownerOperations = operationsOf(t).filter(
      (operation) =>
        audienceOf(operation) === 'user' &&
        [...operation.pathParams, ...operation.query.map((parameter) => parameter.name)].some(
          (name) => ownersValue(operation, name) !== undefined,
        ),
    );
    // Tickets (3), numbers (7: the money of a number, another SMS, finishing and a problem report among
    // them), rents (7, one the money of a rent), a top-up (1).
    expect(ownerOperations).toHaveLength(18);
    const before = await snapshotOfState(t);
    for (const operation of ownerOperations) {
      const path = fillPath(
        operation,
        Object.fromEntries(operation.pathParams.map((name) => [name, ownersValue(operation, name)!])),
      );
      const query = operation.query
        .map(({ name }) => [name, ownersValue(operation, name) ?? (name === 'periodID' ? '24' : undefined)])
        .filter((entry): entry is [string, string] => entry[1] !== undefined)
        .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
        .join('&');
      const body = VALID_BODIES[operation.name];
      const response = await t.app.inject({
        method: operation.method,
        url: query ? `${path}?${query}` : path,
        headers: stranger.headers,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      expect(response.statusCode, `${operation.name} ${response.body}`).toBe(404);
      expectErrorShape(response.json(), operation.name);
    }
    expect(await snapshotOfState(t)).toEqual(before);
  });
});

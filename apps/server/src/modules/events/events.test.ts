import { type ClientRequest, get, type IncomingMessage } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { testDatabase } from '../../../test/support/database';
import { createUser, type TestUser } from '../../../test/support/users';

// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
let t: TestApp | undefined;
const requests: ClientRequest[] = [];
afterEach(async () => {
  for (const request of requests.splice(0)) request.destroy();
  t?.app.server.closeAllConnections();
  await t?.app.close();
  t = undefined;
});

/**
 * Opens an event stream and resolves once the server has started it; `ended` settles when the server ends
 * it, and `received` is what it sent so far.
 */
function openStream(port: number, user: TestUser) {
  return new Promise<{ ended: Promise<void>; received(): string }>((resolve, reject) => {
    const request = get(
      { port, host: '127.0.0.1', path: '/api/dashboard/events', headers: user.headers },
      (response: IncomingMessage) => {
        expect(response.statusCode).toBe(200);
        let text = '';
        const ended = new Promise<void>((done) => response.on('end', () => done()));
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.once('data', () => resolve({ ended, received: () => text }));
      },
    );
    request.on('error', reject);
    requests.push(request);
  });
}

describe('live-update streams', () => {
  it('keep at most the cap per user and in all, closing the oldest', async () => {
    t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: '2', SSE_MAX_STREAMS: '3' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const [alice, bob] = [await createUser(t), await createUser(t)];

    const alice1 = await openStream(port, alice);
    const alice2 = await openStream(port, alice);
    await openStream(port, alice);
    await alice1.ended; // Alice's third stream closed her first.
    await openStream(port, bob);
    await openStream(port, bob);
    await alice2.ended; // Four streams in all: the oldest one left (Alice's second) closed.
  });

  it('close when their session is revoked: sign-out everywhere ends every stream of the user', async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const aliceStream = await openStream(port, alice);
    const bobStream = await openStream(port, bob);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout-all',
      headers: alice.headers,
    });
    expect(signedOut.statusCode).toBe(200);
    await aliceStream.ended;
    // Bob's stream is his: still open, and his session still works.
    const stillOpen = await Promise.race([bobStream.ended.then(() => false), Promise.resolve(true)]);
    expect(stillOpen).toBe(true);
    expect((await t.app.inject({ url: '/api/dashboard/summary', headers: bob.headers })).statusCode).toBe(
      200,
    );
  });

  it("tell the user's other pages that a setting of the account changed, and nobody else's", async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const aliceStream = await openStream(port, alice);
    const bobStream = await openStream(port, bob);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/account/language',
      headers: alice.headers,
      payload: { language: 'ru' },
    });
    expect(saved.statusCode).toBe(200);
    await expect.poll(() => aliceStream.received()).toContain('event: settings\ndata: {}');
    const bought = await t.app.inject({
      method: 'PUT',
      url: '/api/account/buying',
      headers: alice.headers,
      payload: { one_click_buying: true },
    });
    expect(bought.statusCode).toBe(200);
    await expect.poll(() => aliceStream.received().split('event: settings').length).toBe(3);
    expect(bobStream.received()).not.toContain('event: settings');
  });
});

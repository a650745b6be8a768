import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import { testDatabase } from '../../test/support/database';

// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
let t: TestApp | undefined;
afterEach(async () => {
  t?.app.server.closeAllConnections();
  await t?.app.close();
  t = undefined;
});

async function listening(env: Record<string, string>) {
  t = await createTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return address.port;
}

/** A raw socket, and a promise of everything the server wrote to it once it closed. */
async function openSocket(port: number) {
  const socket: Socket = connect({ port, host: '127.0.0.1' });
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed };
}

describe('slow clients', () => {
  it('answers 408 and closes a request whose body trickles in past the request timeout', async () => {
    const port = await listening({ HTTP_REQUEST_TIMEOUT_MS: '400', HTTP_HEADERS_TIMEOUT_MS: '200' });
    const sockets = await Promise.all(Array.from({ length: 5 }, () => openSocket(port)));
    for (const { socket } of sockets) {
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"u',
      );
    }
    // Waits on the outcome only: each socket is answered and closed by the server, never by the test.
    for (const { closed } of sockets) expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never finishes its headers', async () => {
    const port = await listening({ HTTP_REQUEST_TIMEOUT_MS: '400', HTTP_HEADERS_TIMEOUT_MS: '200' });
    const { socket, closed } = await openSocket(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await closed).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('refuses connections past the per-address cap while the first ones are still served', async () => {
    const port = await listening({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3' });
    const held = [];
    for (let index = 0; index < 3; index += 1) held.push(await openSocket(port));
    const refused = await openSocket(port);
    expect(await refused.closed).toBe('');
    const [first] = held;
    first!.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await first!.closed).toMatch(/^HTTP\/1\.1 200 /);
  });
});

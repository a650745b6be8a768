import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import { testDatabase } from '../../test/support/database';

beforeAll(async () => {
  await testDatabase();
});
let t: TestApp | undefined;
afterEach(async () => {
  t?.app.server.closeAllConnections();
  await t?.app.close();
  t = undefined;
});

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

function statusAndBody(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as Record<string, unknown> };
}

describe('requests Node refuses before Fastify sees them', () => {
  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'malformed_request'],
    [
      'a NUL in a header',
      'GET /api/healthz HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n',
      400,
      'malformed_request',
    ],
    [
      'headers too large',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['no Host', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'missing_host'],
  ])('%s: answered in the one error shape', async (_what, bytes, status, code) => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const answer = statusAndBody(await rawExchange(port, bytes));
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ success: false, error: expect.any(String), code });
  });
});

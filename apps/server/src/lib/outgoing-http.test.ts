import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callForText, describeCallFailure } from './outgoing-http';

let server: Server | undefined;

async function serve(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return describeCallFailure(error);
  }
  throw new Error('the call did not fail');
}

async function stop(): Promise<void> {
  const running = server;
  server = undefined;
  running?.closeAllConnections();
  await new Promise((resolve) => (running ? running.close(resolve) : resolve(undefined)));
}

afterEach(stop);

describe('an outgoing call', () => {
  it('reads the status and the whole body, with the headers asked for', async () => {
    const base = await serve((request, response) => {
      response.statusCode = 502;
      response.end(`seen ${request.headers.accept}`);
    });
    expect(
      await callForText(`${base}/x?a=1`, { headers: { accept: 'text/plain' }, timeoutMs: 5000 }),
    ).toEqual({
      status: 502,
      text: 'seen text/plain',
    });
  });

  it('names a server that never answers, one that cuts the connection and a port nobody listens on', async () => {
    const hanging = await serve(() => {});
    expect(await failureOf(callForText(hanging, { headers: {}, timeoutMs: 50 }))).toBe('TIMEOUT');
    await stop();

    const cutting = await serve((request) => request.socket.destroy());
    expect(await failureOf(callForText(cutting, { headers: {}, timeoutMs: 5000 }))).toMatch(
      /^NETWORK_[A-Z_]+$/,
    );
    await stop();
    expect(await failureOf(callForText(cutting, { headers: {}, timeoutMs: 5000 }))).toBe(
      'NETWORK_ECONNREFUSED',
    );
  });

  it('times out a body that stops halfway', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial');
    });
    expect(await failureOf(callForText(base, { headers: {}, timeoutMs: 100 }))).toBe('TIMEOUT');
  });
});

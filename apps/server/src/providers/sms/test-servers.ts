import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { ManualClock } from '../../lib/clock';
import { createSimulator, type SimulatorOptions } from './simulator';
import { createSmsActivateProvider, type SmsActivateProviderOptions } from './sms-activate';

/**
 * Real HTTP servers on 127.0.0.1 for the provider tests: the simulator on its own Fastify instance,
 * fake upstreams that answer whatever a test wants, and webhook receivers.
 */

export const SIMULATOR_KEY = 'test-simulator-key';

export async function startSimulator(
  overrides: Partial<SimulatorOptions> = {},
  providerOverrides: Partial<SmsActivateProviderOptions> = {},
) {
  const clock = new ManualClock(Date.UTC(2026, 2, 2, 12, 0, 0));
  const simulator = createSimulator({
    apiKey: SIMULATOR_KEY,
    seed: 7,
    smsDelayMinMs: 10_000,
    smsDelayMaxMs: 10_000,
    noSmsRate: 0,
    clock,
    ...overrides,
  });
  const app = Fastify();
  await app.register(simulator.plugin, { prefix: '/simulator' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const handlerUrl = `${origin}/simulator/stubs/handler_api.php`;
  const provider = createSmsActivateProvider({
    baseUrl: () => handlerUrl,
    apiKey: SIMULATOR_KEY,
    timeoutMs: 2000,
    retryBackoffMs: 5,
    ...providerOverrides,
  });

  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the control API answers.
  async function control(command: string, body: unknown = {}): Promise<{ status: number; body: any }> {
    const response = await fetch(`${origin}/simulator/control/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-simulator-key': SIMULATOR_KEY },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** A raw handler_api.php call, for asserting on the wire format itself. */
  async function raw(params: Record<string, string>, init: RequestInit = {}) {
    const url = new URL(handlerUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const response = await fetch(url, init);
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      text: await response.text(),
    };
  }

  /** Moves the clock and runs the delivery loop, as the timer would. */
  function advance(ms: number): Promise<void> {
    clock.advance(ms);
    return simulator.tick();
  }

  return {
    clock,
    simulator,
    app,
    origin,
    handlerUrl,
    provider,
    control,
    raw,
    advance,
    async close() {
      await simulator.stop();
      await app.close();
    },
  };
}

export type SimulatorHarness = Awaited<ReturnType<typeof startSimulator>>;

export interface FakeAnswer {
  status?: number;
  body?: string;
  contentType?: string;
}

export interface RecordedRequest {
  /** handler_api.php's `action`; empty for REST-style upstreams (5sim), which `path` tells apart. */
  action: string;
  params: URLSearchParams;
  path: string;
  authorization: string | undefined;
}

/** Answers each request with what `answer` returns; 'hang' never answers, 'reset' drops the connection. */
export async function startFakeUpstream(answer: (request: RecordedRequest) => FakeAnswer | 'hang' | 'reset') {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const parsed = new URL(incoming.url ?? '/', 'http://localhost');
    const params = parsed.searchParams;
    const request = {
      action: params.get('action') ?? '',
      params,
      path: parsed.pathname,
      authorization: incoming.headers.authorization,
    };
    requests.push(request);
    const result = answer(request);
    if (result === 'hang') return;
    if (result === 'reset') {
      incoming.socket.destroy();
      return;
    }
    response.writeHead(result.status ?? 200, {
      'content-type': result.contentType ?? 'text/plain; charset=utf-8',
    });
    response.end(result.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/stubs/handler_api.php`,
    origin,
    requests,
    count: (action: string) => requests.filter((request) => request.action === action).length,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Collects JSON bodies POSTed to it, answering the given statuses in turn and 200 after that. */
export async function startWebhookReceiver(statuses: number[] = []) {
  const received: unknown[] = [];
  let attempts = 0;
  const server = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => {
      body += chunk;
    });
    incoming.on('end', () => {
      const status = statuses[attempts] ?? 200;
      attempts += 1;
      if (status < 300) received.push(JSON.parse(body));
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    attempts: () => attempts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

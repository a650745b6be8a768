import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createSimulator, type SimulatorOptions } from '../../src/simulator';
import { ManualClock } from './manual-clock';

/**
 * Real HTTP servers on 127.0.0.1 for the simulator's tests and its clients': the simulator on its own
 * Fastify instance, and webhook receivers.
 */

export const SIMULATOR_KEY = 'test-simulator-key';

export async function startSimulator(overrides: Partial<SimulatorOptions> = {}) {
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

// Helpers for the payment sandbox's tests and its clients'.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import { createPaymentSandbox, type PaymentSandbox } from '../../src/sandbox/sandbox';
import type { SandboxStore } from '../../src/sandbox/state';
import type { SandboxWalletStore } from '../../src/sandbox/wallets';
import type { SharedTurnPort } from '../../src/shared-turns';
import { ManualClock } from './manual-clock';

export const MERCHANT = 'sandbox-merchant';
export const KEY = 'sandbox-key-for-tests';

interface ReceivedWebhook {
  body: string;
  ip: string;
}

/** The shop's webhook endpoint: records raw bodies and answers the scripted statuses (200 after them). */
async function startReceiver(statuses: number[] = []) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), ip: request.socket.remoteAddress ?? '' });
      response.writeHead(statuses.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/payments/webhook`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Harness {
  app: FastifyInstance;
  sandbox: PaymentSandbox;
  /** Where the sandbox listens, e.g. http://127.0.0.1:40123; its merchant API is under /sandbox/cryptomus. */
  origin: string;
  clock: ManualClock;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
}

const running: Harness[] = [];

/** The sandbox on a real port, with a webhook receiver; stop it with stopSandbox. */
export async function startSandbox(
  options: {
    store?: SandboxStore;
    walletStore?: SandboxWalletStore;
    sharedTurns?: SharedTurnPort;
    receiverStatuses?: number[];
    clock?: ManualClock;
  } = {},
): Promise<Harness> {
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 0, 1, 12));
  const receiver = await startReceiver(options.receiverStatuses);
  let origin = '';
  const sandbox = createPaymentSandbox({
    merchantId: MERCHANT,
    apiKey: KEY,
    publicUrl: () => origin,
    store: options.store,
    walletStore: options.walletStore,
    sharedTurns: options.sharedTurns,
    clock,
    webhookRetryDelaysMs: [20, 20, 20],
  });
  const app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  await sandbox.load();
  await app.listen({ port: 0, host: '127.0.0.1' });
  sandbox.start();
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const harness = { app, sandbox, origin, clock, receiver };
  running.push(harness);
  return harness;
}

export async function stopSandbox(harness: Pick<Harness, 'app' | 'sandbox' | 'receiver'>) {
  running.splice(
    running.findIndex((started) => started.sandbox === harness.sandbox),
    1,
  );
  await harness.sandbox.stop();
  await harness.app.close();
  await harness.receiver.close();
}

/** For afterEach: whatever a test left running. */
export const stopAllSandboxes = () => Promise.all([...running].map(stopSandbox));

/** Presses a button of the hosted payment page, as the payer's browser posts it. */
export async function pressButton(
  h: Pick<Harness, 'origin'>,
  uuid: string,
  button: 'pay' | 'cancel',
  form = '',
) {
  const response = await fetch(`${h.origin}/sandbox/pay/${uuid}/${button}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** Waits for the receiver to hold this many webhooks and returns the last one: its body and sender. */
export async function receivedWebhook(h: Pick<Harness, 'receiver'>, count: number) {
  await vi.waitFor(() => expect(h.receiver.received).toHaveLength(count), { timeout: 5000 });
  const last = h.receiver.received[count - 1]!;
  return { raw: last.body, ip: last.ip };
}

// The built-in NOWPayments sandbox's state in the product's database: over a restart, and shared by two
// processes serving it (a public demo behind a load balancer), through the product's NOWPayments adapter.
import type { AddressInfo } from 'node:net';
import { createNowPaymentsSandbox, type NowPaymentsSandbox } from '@simcode/stand-ins';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabase, testDatabaseUrl } from '../../../../test/support/database';
import { createNowPaymentsStore, createSharedTurnPort } from '../../stand-in-stores';
import { createNowPaymentsProvider } from './provider';

const API_KEY = 'np-sandbox-state-key';
const running: Array<{ app: FastifyInstance; sandbox: NowPaymentsSandbox }> = [];

afterEach(async () => {
  for (const { app, sandbox } of running.splice(0)) {
    await sandbox.stop();
    await app.close();
  }
});

/** One process serving the sandbox from the test database, with the adapter pointed at it. */
async function serve(options: { shared?: boolean } = {}) {
  const database = await testDatabase();
  let origin = '';
  const sandbox = createNowPaymentsSandbox({
    apiKey: API_KEY,
    ipnSecret: 'np-sandbox-state-ipn',
    email: 'shop@example.test',
    password: 'pw',
    publicUrl: () => origin,
    ipnRetryDelaysMs: [],
    store: createNowPaymentsStore(database.db),
    sharedTurns: options.shared ? createSharedTurnPort(database, 'sandbox:nowpayments') : undefined,
  });
  const app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox/nowpayments' });
  await sandbox.load();
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  running.push({ app, sandbox });
  const payments = createNowPaymentsProvider({
    baseUrl: `${origin}/sandbox/nowpayments`,
    apiKey: API_KEY,
    ipnSecret: 'np-sandbox-state-ipn',
    email: 'shop@example.test',
    password: 'pw',
    timeoutMs: 5000,
  });
  return { origin, sandbox, payments };
}

let orderCounter = 0;
function invoiceRequest() {
  orderCounter += 1;
  return {
    orderId: `np-state-${orderCounter}`,
    amountCents: 1500,
    // Nobody listens there: the IPN is not what these tests read.
    callbackUrl: 'http://127.0.0.1:9/ipn',
    returnUrl: 'http://localhost:3000/wallet',
    successUrl: 'http://localhost:3000/wallet?paid=1',
    lifetimeSeconds: 3600,
  };
}

/** The payer pays the invoice in full on the hosted page of `origin`. */
async function payOnPage(origin: string, invoiceId: string) {
  const response = await fetch(`${origin}/sandbox/nowpayments/payment/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ iid: invoiceId, coin: 'usdttrc20', amount: 'exact' }).toString(),
    redirect: 'manual',
  });
  return response.status;
}

describe('the NOWPayments sandbox in the database', () => {
  beforeAll(async () => resetDatabase(await testDatabase()), 180_000);

  it('knows its invoices, payments and next ids after a restart', async () => {
    const first = await serve();
    const request = invoiceRequest();
    const invoice = await first.payments.createInvoice(request);
    expect(await payOnPage(first.origin, invoice.providerPaymentId)).toBe(303);
    await first.sandbox.stop();

    const second = await serve();
    const lookup = { providerPaymentId: invoice.providerPaymentId, orderId: request.orderId };
    expect(await second.payments.getPayment(lookup)).toMatchObject({ status: 'finished', amountCents: 1500 });
    const next = await second.payments.createInvoice(invoiceRequest());
    expect(Number(next.providerPaymentId)).toBeGreaterThan(Number(invoice.providerPaymentId));
  });

  it.skipIf(!testDatabaseUrl)(
    'served by two processes: each id issued once, an invoice paid on the other’s page',
    async () => {
      const [a, b] = [await serve({ shared: true }), await serve({ shared: true })];
      const requests = Array.from({ length: 8 }, () => invoiceRequest());
      const invoices = await Promise.all(
        requests.map((request, index) => (index % 2 ? a : b).payments.createInvoice(request)),
      );
      expect(new Set(invoices.map((invoice) => invoice.providerPaymentId)).size).toBe(8);

      const [invoice, request] = [invoices[0]!, requests[0]!];
      const page = await fetch(invoice.url.replace(/^http:\/\/[^/]+/, a.origin));
      expect(page.status).toBe(200);
      expect(await payOnPage(a.origin, invoice.providerPaymentId)).toBe(303);
      const lookup = { providerPaymentId: invoice.providerPaymentId, orderId: request.orderId };
      expect(await b.payments.getPayment(lookup)).toMatchObject({ status: 'finished' });
    },
  );
});

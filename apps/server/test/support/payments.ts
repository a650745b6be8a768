// Helpers for the top-up tests (not loaded by the app).
import { createServer } from 'node:net';
import { encodeSignedWebhook } from '@simcode/cryptomus-protocol';
import { expect } from 'vitest';
import { createPaymentsRepository } from '../../src/modules/payments/repository';
import { closeTestApp, createTestApp, type TestApp } from './app';
import type { TestUser } from './users';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The whole app listening on its PUBLIC_URL, with the built-in Cryptomus sandbox: invoices are created
 * over real HTTP and the sandbox's webhooks reach the app's own webhook route, as in production.
 */
export async function createPaymentsTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  // The port is known before the app is built (PUBLIC_URL names it), so another process may take it in
  // between: then the app is built again on another one.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const t = await createTestApp({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env });
    try {
      await t.app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await closeTestApp(t);
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      throw error;
    }
    t.ctx.loopback.setFromAddress(t.app.server.address());
    return t;
  }
}

/** Calls the sandbox's control API (status changes without webhooks, invoice state). */
export async function sandboxControl(t: TestApp, command: string, body: Record<string, unknown>) {
  const response = await fetch(`${t.config.PUBLIC_URL}/sandbox/control/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-key': t.config.CRYPTOMUS_API_KEY },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as { state: number; result: Record<string, unknown> };
  if (!response.ok) throw new Error(`sandbox control ${command} failed: ${JSON.stringify(payload)}`);
  return payload.result;
}

/** Calls the NOWPayments sandbox's control API (payments in any status, resends, fault injection). */
export async function nowPaymentsControl(t: TestApp, command: string, body: Record<string, unknown>) {
  const settings = t.config.paymentProviders.find((provider) => provider.kind === 'nowpayments');
  const response = await fetch(`${t.config.PUBLIC_URL}/sandbox/nowpayments/control/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-key': settings!.apiKey },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`nowpayments control ${command} failed: ${JSON.stringify(payload)}`);
  return payload;
}

/**
 * Creates an invoice through the API (at the named provider, or the default one); returns our order id
 * and the provider's invoice id.
 */
export async function createInvoice(t: TestApp, user: TestUser, amount = 12.34, provider?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/topup/cryptomus/create-invoice',
    headers: user.headers,
    payload: { amount, ...(provider ? { provider } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { order_id: orderId, url } = response.json() as { order_id: string; url: string };
  const payment = await createPaymentsRepository(t.ctx.database.db).findByOrderId(orderId);
  return { orderId, url, uuid: payment!.providerPaymentId!, paymentId: payment!.id };
}

export interface WebhookFields {
  uuid: string;
  order_id: string;
  status: string;
  amount: string;
  payment_amount_usd?: string | null;
  is_final?: boolean;
}

/** A webhook body in Cryptomus's field order, signed with the app's payment key (or another key). */
export function signedWebhook(t: TestApp, fields: WebhookFields, key = t.config.CRYPTOMUS_API_KEY): string {
  const paid = fields.payment_amount_usd ?? null;
  return encodeSignedWebhook(
    {
      type: 'payment',
      uuid: fields.uuid,
      order_id: fields.order_id,
      amount: fields.amount,
      payment_amount: paid,
      payment_amount_usd: paid,
      merchant_amount: null,
      commission: null,
      is_final: fields.is_final ?? true,
      status: fields.status,
      from: null,
      wallet_address_uuid: null,
      network: 'tron',
      currency: 'USD',
      payer_currency: 'USDT',
      additional_data: null,
    },
    key,
  );
}

export function postWebhook(
  t: TestApp,
  body: string,
  options: { contentType?: string; remoteAddress?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/topup/cryptomus/webhook',
    headers: { 'content-type': options.contentType ?? 'application/json' },
    payload: body,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

export async function topupStatus(t: TestApp, user: TestUser, orderId: string): Promise<string> {
  const response = await t.app.inject({
    url: `/api/topup/cryptomus/status?order_id=${encodeURIComponent(orderId)}`,
    headers: user.headers,
  });
  return response.json().status;
}

import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The official client, as published: a webpack bundle with axios 0.21 inside.
import NowPaymentsApi from '@nowpaymentsio/nowpayments-api-js';
import { verifyIpn } from '@simcode/nowpayments-protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNowPaymentsSandbox, type NowPaymentsSandbox } from '../../src/nowpayments/sandbox';

const API_KEY = 'np-api-key-for-tests';
const IPN_SECRET = 'np-ipn-secret-for-tests';

/**
 * `@nowpaymentsio/nowpayments-api-js` (1.0.5), unmodified, against the NOWPayments sandbox. Its base URL
 * (https://api.nowpayments.io/v1/) is fixed inside a fresh axios instance per call; the one standard way
 * to send it elsewhere is the proxy its axios honours (`https_proxy`): a few lines of forwarding proxy
 * here take its absolute-URL requests and pass them to the sandbox.
 */
let app: FastifyInstance;
let sandbox: NowPaymentsSandbox;
let proxy: Server;
let receiver: Server;
const ipns: { body: string; signature: string | undefined }[] = [];
let savedProxy: string | undefined;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeEach(async () => {
  ipns.length = 0;
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      ipns.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: request.headers['x-nowpayments-sig'] as string | undefined,
      });
      response.writeHead(200).end('ok');
    });
  });
  const receiverPort = await listen(receiver);
  let origin = '';
  sandbox = createNowPaymentsSandbox({
    apiKey: API_KEY,
    ipnSecret: IPN_SECRET,
    email: 'shop@example.test',
    password: 'pw',
    publicUrl: () => origin,
  });
  app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox/nowpayments' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const sandboxPort = (app.server.address() as AddressInfo).port;
  proxy = createServer((request, response) => {
    const target = new URL(request.url ?? '/');
    expect(target.origin).toBe('https://api.nowpayments.io');
    const forwarded = httpRequest(
      {
        host: '127.0.0.1',
        port: sandboxPort,
        method: request.method,
        path: `/sandbox/nowpayments${target.pathname}${target.search}`,
        headers: { ...request.headers, host: `127.0.0.1:${sandboxPort}` },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  savedProxy = process.env.https_proxy;
  process.env.https_proxy = `http://127.0.0.1:${await listen(proxy)}`;
  (globalThis as { receiverUrl?: string }).receiverUrl = `http://127.0.0.1:${receiverPort}/ipn`;
});

afterEach(async () => {
  if (savedProxy === undefined) delete process.env.https_proxy;
  else process.env.https_proxy = savedProxy;
  sandbox.stop();
  await app.close();
  await new Promise((resolve) => proxy.close(resolve));
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('the official NOWPayments client against the sandbox', () => {
  it('reads the status and minimums, creates an invoice, and reads its payment once paid', async () => {
    const client = new NowPaymentsApi({ apiKey: API_KEY });
    expect(await client.status()).toEqual({ message: 'OK' });
    expect(
      await client.getMinimumPaymentAmount({ currency_from: 'usdttrc20', currency_to: 'usdttrc20' }),
    ).toMatchObject({
      currency_from: 'usdttrc20',
      min_amount: 1,
    });

    const invoice = (await client.createInvoice({
      price_amount: 10.5,
      price_currency: 'usd',
      order_id: 'order-1',
      order_description: 'Balance top-up',
      ipn_callback_url: (globalThis as { receiverUrl?: string }).receiverUrl!,
      success_url: 'https://shop.example.test/ok',
      cancel_url: 'https://shop.example.test/back',
    })) as { id: string; invoice_url: string; price_amount: string };
    expect(invoice).toMatchObject({ order_id: 'order-1', price_amount: '10.5', price_currency: 'usd' });
    expect(invoice.invoice_url).toMatch(/\/sandbox\/nowpayments\/payment\/\?iid=\d+$/);

    // The payer pays on the hosted page; the client then reads the payment by its id.
    const page = new URL(invoice.invoice_url);
    const paid = await fetch(new URL('pay', page), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ iid: invoice.id, coin: 'usdttrc20', amount: 'exact' }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    await expect.poll(() => ipns.length).toBe(1);
    const ipn = verifyIpn(ipns[0]!.body, ipns[0]!.signature, IPN_SECRET);
    expect(ipn).toMatchObject({
      invoice_id: Number(invoice.id),
      payment_status: 'finished',
      actually_paid: 10.5,
    });

    const status = await client.getPaymentStatus({ payment_id: String(ipn!.payment_id) });
    expect(status).toMatchObject({
      payment_id: ipn!.payment_id,
      payment_status: 'finished',
      price_amount: 10.5,
      pay_currency: 'usdttrc20',
      order_id: 'order-1',
    });
  });

  it('is refused the payment list without the dashboard token, as by the real API, and a wrong key always', async () => {
    expect(await new NowPaymentsApi({ apiKey: API_KEY }).getListPayments()).toMatchObject({
      statusCode: 401,
      code: 'AUTH_REQUIRED',
    });
    expect(await new NowPaymentsApi({ apiKey: 'wrong' }).getPaymentStatus({ payment_id: '1' })).toMatchObject(
      {
        statusCode: 403,
        code: 'INVALID_API_KEY',
      },
    );
  });
});

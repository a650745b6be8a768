import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey } from '../../../test/support/reseller';
import { anOffer, createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { balanceOf } from '../accounts/ledger';
import { WAITS_PER_KEY } from '../api-keys/wait-slots';

let t: TestApp;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

async function connect(secret: string): Promise<Client> {
  client = new Client({ name: 'agent-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.ctx.loopback.origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

type ToolAnswer = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: Array<{ text: string }>;
};

async function tool(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  return (await client!.callTool({ name, arguments: args })) as ToolAnswer;
}

describe('the MCP server, through the official SDK client', () => {
  it('lists offers, buys once per idempotency key, waits for the code, asks for another, finishes', async () => {
    t = await createListeningTestApp({ SIMULATOR_EARLY_CANCEL_MS: '0' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { secret } = await createApiKey(t, user);
    await connect(secret);

    const tools = (await client!.listTools()).tools.map((entry) => entry.name).sort();
    expect(tools).toEqual([
      'buy_number',
      'cancel_order',
      'finish_order',
      'get_balance',
      'get_order',
      'list_offers',
      'request_another_sms',
      'wait_for_code',
    ]);
    const offers = await tool('list_offers', { country: 'GB', service: offer.service });
    expect(offers.structuredContent?.offers).toEqual([
      expect.objectContaining({ country: 'GB', service: offer.service, price_usd: offer.priceCents / 100 }),
    ]);

    const args = { country: 'GB', service: offer.service, idempotency_key: 'purchase-0001' };
    const bought = await tool('buy_number', args);
    expect(bought.isError).toBeFalsy();
    const orderId = bought.structuredContent?.order_id as number;
    const again = await tool('buy_number', args);
    expect(again.structuredContent).toMatchObject({ order_id: orderId, replayed: true });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);

    const order = await t.ctx.activations.find(user.id, orderId);
    const waiting = tool('wait_for_code', { order_id: orderId, timeout_seconds: 20 });
    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '31337',
      text: 'Code 31337',
    });
    expect((await waiting).structuredContent).toEqual({ status: 'code_received', code: '31337' });

    expect((await tool('request_another_sms', { order_id: orderId })).structuredContent).toMatchObject({
      ok: true,
    });
    expect((await tool('finish_order', { order_id: orderId })).structuredContent).toMatchObject({ ok: true });
    const cancel = await tool('cancel_order', { order_id: orderId });
    expect(cancel.isError).toBe(true);
    expect(JSON.parse(cancel.content[0]!.text)).toMatchObject({ error: 'BAD_STATUS' });
  });

  it('refuses without a valid key and answers a cap as an error the agent can read', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const response = await fetch(`${t.ctx.loopback.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sc_wrong' },
      body: '{}',
    });
    expect(response.status).toBe(401);

    const { secret } = await createApiKey(t, user, { total_cap: 0.01 });
    await connect(secret);
    const refused = await tool('buy_number', {
      country: 'GB',
      service: offer.service,
      idempotency_key: 'purchase-0002',
    });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0]!.text)).toMatchObject({ error: 'NO_BALANCE' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
  });

  it('refuses a wait_for_code past the per-key cap, and the waits already open still get their code', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { secret } = await createApiKey(t, user);
    await connect(secret);
    const bought = await tool('buy_number', {
      country: 'GB',
      service: offer.service,
      idempotency_key: 'purchase-0003',
    });
    const orderId = bought.structuredContent?.order_id as number;

    // One more than the cap at once: none can end before the code comes, except the one refused.
    const waits = Array.from({ length: WAITS_PER_KEY + 1 }, () =>
      tool('wait_for_code', { order_id: orderId, timeout_seconds: 60 }),
    );
    const first = await Promise.race(waits);
    expect(first.isError).toBe(true);
    expect(JSON.parse(first.content[0]!.text)).toMatchObject({ error: 'TOO_MANY_WAITS' });

    const order = await t.ctx.activations.find(user.id, orderId);
    await simulatorControl(t, 'sms', { activationId: order!.providerActivationId, code: '2718' });
    const answers = await Promise.all(waits);
    expect(answers.filter((answer) => answer.isError)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.isError).map((answer) => answer.structuredContent)).toEqual(
      Array(WAITS_PER_KEY).fill({ status: 'code_received', code: '2718' }),
    );
    // The slots are given back when the waits end.
    expect(
      (await tool('wait_for_code', { order_id: orderId, timeout_seconds: 1 })).structuredContent,
    ).toEqual({
      status: 'code_received',
      code: '2718',
    });
  });
});

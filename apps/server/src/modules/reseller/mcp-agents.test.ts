import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { findCountry, findService } from '@simcode/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { assertParallelBuysKeepToCap, createApiKey } from '../../../test/support/reseller';
import { anOffer, createListeningTestApp } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { balanceOf } from '../accounts/ledger';

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
const tool = async (name: string, args: Record<string, unknown> = {}) =>
  (await client!.callTool({ name, arguments: args })) as ToolAnswer;

const post = (secret: string, body: string) =>
  fetch(`${t.ctx.loopback.origin}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body,
  });

/**
 * What an agent is asked, and the tool call it must be able to make: the arguments must pass the tool's own
 * input schema as the server publishes it, and name what the request means.
 */
interface Example {
  request: string;
  tool: string;
  args: { service?: string; country?: string; countries?: string[]; [name: string]: unknown };
  means: { service?: string; countries?: string[] };
}

const EVALUATION: Example[] = [
  {
    request: 'Get me a Telegram number in Israel',
    tool: 'buy_number',
    args: { service: 'Telegram', country: 'Israel', idempotency_key: 'eval-telegram-israel' },
    means: { service: 'tg', countries: ['IL'] },
  },
  {
    request: 'Buy a WhatsApp number from the UK, or failing that from the United States, under 80 cents',
    tool: 'buy_number',
    args: {
      service: 'WhatsApp',
      countries: ['UK', 'United States'],
      max_price_usd: 0.8,
      idempotency_key: 'eval-whatsapp-uk-us',
    },
    means: { service: 'wa', countries: ['GB', 'US'] },
  },
  {
    request: 'What does a Gmail number cost in Germany?',
    tool: 'list_offers',
    args: { service: 'Gmail', country: 'Germany' },
    means: { service: 'go', countries: ['DE'] },
  },
  {
    request: 'Wait up to a minute for the code of order 42',
    tool: 'wait_for_code',
    args: { order_id: 42, timeout_seconds: 60 },
    means: {},
  },
  {
    request: 'The code did not work, send another one for order 42',
    tool: 'request_another_sms',
    args: { order_id: 42 },
    means: {},
  },
  { request: 'How much money is left?', tool: 'get_balance', args: {}, means: {} },
];

describe('the MCP server for agents', () => {
  it('publishes tools an agent can call for what people ask, by the names people use', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const { secret } = await createApiKey(t, user);
    await connect(secret);
    const tools = new Map((await client!.listTools()).tools.map((entry) => [entry.name, entry]));

    for (const example of EVALUATION) {
      const published = tools.get(example.tool);
      expect(published, example.request).toBeDefined();
      expect(published!.outputSchema, example.request).toBeDefined();
      const input = z.fromJSONSchema(published!.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
      expect(input.safeParse(example.args).success, example.request).toBe(true);
      if (example.means.service) expect(findService(example.args.service!)?.code).toBe(example.means.service);
      const countries = example.args.countries ?? (example.args.country ? [example.args.country] : []);
      if (example.means.countries)
        expect(countries.map((country) => findCountry(country)?.id)).toEqual(example.means.countries);
    }
  });

  it('buys by names, tries countries in order, and refuses an idempotency key reused with other arguments', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { secret } = await createApiKey(t, user);
    await connect(secret);
    const service = t.ctx.catalog.services('GB').find((entry) => entry.service === offer.service)!.name;

    const unknown = await tool('buy_number', { service, country: 'Atlantis', idempotency_key: 'names-0001' });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(unknown.content[0]!.text)).toMatchObject({ error: 'BAD_COUNTRY', detail: 'Atlantis' });

    // A dearer country first, with a ceiling it cannot meet: the purchase moves on to the next one.
    const dearer = t.ctx.catalog
      .countries()
      .find((country) =>
        t.ctx.catalog
          .services(country.id)
          .some((entry) => entry.service === offer.service && entry.priceCents > offer.priceCents),
      )!;
    const preferred = [dearer.name, 'UK'];
    const first = await tool('buy_number', {
      service,
      countries: preferred,
      max_price_usd: offer.priceCents / 100,
      idempotency_key: 'names-0002',
    });
    expect(first.isError, first.content[0]?.text).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ country: 'GB', service: offer.service, replayed: false });
    expect(first.structuredContent?.price_usd).toBe(offer.priceCents / 100);

    const replay = await tool('buy_number', {
      service,
      countries: preferred,
      max_price_usd: offer.priceCents / 100,
      idempotency_key: 'names-0002',
    });
    expect(replay.structuredContent).toEqual({ ...first.structuredContent, replayed: true });
    const reused = await tool('buy_number', { service, country: 'US', idempotency_key: 'names-0002' });
    expect(JSON.parse(reused.content[0]!.text)).toMatchObject({ error: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);
  });

  it('never lets an agent’s parallel purchases exceed its key’s spending cap', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t, 'GB');
    // One session, as an agent runs its tool calls: the calls go out together.
    let connected: Promise<Client> | undefined;
    await assertParallelBuysKeepToCap(t, user, {
      priceCents: offer.priceCents,
      fits: 5,
      attempts: 24,
      buy: async (secret, attempt) => {
        connected ??= connect(secret);
        await connected;
        const answer = await tool('buy_number', {
          service: offer.service,
          country: 'GB',
          idempotency_key: `cap-burst-${attempt}`,
        });
        if (!answer.isError) return true;
        expect(JSON.parse(answer.content[0]!.text)).toMatchObject({ error: 'NO_BALANCE' });
        return false;
      },
    });
  });

  it('answers one message per request: a batch, bad JSON and a body too large are 4xx errors', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const { secret } = await createApiKey(t, user);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

    const batch = await post(
      secret,
      JSON.stringify(Array.from({ length: 100 }, (_, id) => ({ ...call, id }))),
    );
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });

    const broken = await post(secret, '{"jsonrpc": "2.0",');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });

    const huge = await post(secret, JSON.stringify({ ...call, params: { padding: 'x'.repeat(70 * 1024) } }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('is a machine path: GET /mcp from another host name is answered, never redirected to a page', async () => {
    t = await createListeningTestApp({ PUBLIC_URL: 'http://localhost:1' });
    const user = await createUser(t);
    const { secret } = await createApiKey(t, user);
    const answer = await fetch(`${t.ctx.loopback.origin}/mcp`, {
      headers: { authorization: `Bearer ${secret}` },
      redirect: 'manual',
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSimCodeClient } from '@simcode/client';
import { protocolIds } from '@simcode/sms-activate-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey, protocolCall } from '../../../test/support/reseller';
import { createListeningTestApp } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { balanceOf } from '../accounts/ledger';

let t: TestApp;
let mcp: Client | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

/** An MCP session of an agent holding the key. */
async function agentOf(secret: string): Promise<Client> {
  const agent = new Client({ name: 'agent-test', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(`${t.ctx.loopback.origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  return agent;
}

/**
 * A service sold in GB and in another country, both well stocked, with known delivery figures: 50 % in
 * GB, 95 % in the other; a third country's figures rest on too few orders ("new").
 */
function twoRatedCountries() {
  const inGb = t.ctx.catalog.services('GB').filter((offer) => offer.stock >= 50);
  for (const country of t.ctx.catalog.countries()) {
    if (country.id === 'GB') continue;
    const shared = inGb.find((offer) =>
      t.ctx.catalog
        .services(country.id)
        .some((entry) => entry.service === offer.service && entry.stock >= 50),
    );
    if (!shared) continue;
    const service = shared.service;
    const newCountry = t.ctx.catalog
      .countries()
      .find(
        (entry) =>
          entry.id !== 'GB' &&
          entry.id !== country.id &&
          t.ctx.catalog.services(entry.id).some((offer) => offer.service === service),
      );
    const row = (countryId: string, orders: number, delivered: number) => ({
      service,
      countryId,
      operator: '*',
      orders,
      delivered,
      medianTimeToCodeMs: 30_000,
    });
    t.ctx.catalog.useDeliveryFigures([
      row('GB', 20, 10),
      row(country.id, 20, 19),
      ...(newCountry ? [row(newCountry.id, 3, 0)] : []),
    ]);
    return { service, low: 'GB', high: country.id, newCountry: newCountry?.id };
  }
  throw new Error('no service sold in GB and elsewhere');
}

describe('a buyer’s minimum delivery rate on the JSON API and MCP', () => {
  it('leaves out offers below it, skips countries below it when buying, and refuses when all are', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 5000);
    const { service, low, high, newCountry } = twoRatedCountries();
    const key = await createApiKey(t, user);
    const api = createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: key.secret });

    const all = await api.GET('/offers', { params: { query: { service } } });
    const rateOf = (country: string) => all.data?.data.find((offer) => offer.country === country)?.delivery;
    expect(rateOf(low)).toMatchObject({ rate: 0.5, orders: 20 });
    expect(rateOf(high)).toMatchObject({ rate: 0.95, orders: 20 });
    const floored = await api.GET('/offers', { params: { query: { service, min_delivery_rate: 0.7 } } });
    const countries = floored.data!.data.map((offer) => offer.country);
    expect(countries).toContain(high);
    expect(countries).not.toContain(low);
    // A "new" offer's rate is not known to be below the floor: it stays listed.
    if (newCountry) expect(countries).toContain(newCountry);
    expect(floored.data!.data.length).toBe(all.data!.data.length - 1);

    const bad = await api.GET('/offers', { params: { query: { service, min_delivery_rate: 1.5 } } });
    expect(bad.response.status).toBe(400);

    const before = await balanceOf(t.ctx.database.db, user.id);
    const refused = await api.POST('/orders', {
      body: { service, countries: [low], min_delivery_rate: 0.7 },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'offer_below_guard', success: false });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(before);

    const skipped = await api.POST('/orders', {
      body: { service, countries: [low, high], min_delivery_rate: 0.7 },
    });
    expect(skipped.response.status).toBe(201);
    expect(skipped.data).toMatchObject({ country: high, service });

    mcp = await agentOf(key.secret);
    const listed = (await mcp.callTool({
      name: 'list_offers',
      arguments: { service, min_delivery_rate: 0.7 },
    })) as unknown as { structuredContent: { offers: Array<{ country: string }> } };
    expect(listed.structuredContent.offers.map((offer) => offer.country)).toEqual(countries);
    const agentRefused = (await mcp.callTool({
      name: 'buy_number',
      arguments: { service, country: low, min_delivery_rate: 0.9, idempotency_key: 'floor-0001' },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(agentRefused.isError).toBe(true);
    expect(JSON.parse(agentRefused.content[0]!.text)).toMatchObject({ error: 'offer_below_guard' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(before - Math.round(skipped.data!.price * 100));
  });

  it('keeps a key to its own minimum delivery rate on the SMS-Activate protocol, the JSON API and MCP', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 5000);
    const { service, low, high } = twoRatedCountries();
    // The floor is the key's setting, not the call's: a bot that sends none is still held to it.
    const key = await createApiKey(t, user, { min_delivery_rate: 0.7 });
    const api = createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: key.secret });
    const protocolBuy = (country: string) =>
      protocolCall(t, key.secret, 'getNumber', {
        service: protocolIds.serviceOf(service),
        country: protocolIds.countryOf(country),
      });

    // Below the floor (50 % < 70 %): the protocol's clients hear there is no number for them, nothing is paid.
    expect((await protocolBuy(low)).body).toBe('NO_NUMBERS');
    const refused = await api.POST('/orders', { body: { service, country: low } });
    expect(refused.response.status).toBe(409);
    expect(refused.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.error).toMatchObject({ code: 'offer_below_guard', status: 409, success: false });
    // A looser floor named on the call does not loosen the key's.
    const looser = await api.POST('/orders', { body: { service, country: low, min_delivery_rate: 0.3 } });
    expect(looser.error).toMatchObject({ code: 'offer_below_guard' });
    mcp = await agentOf(key.secret);
    const agentRefused = (await mcp.callTool({
      name: 'buy_number',
      arguments: { service, country: low, idempotency_key: 'key-floor-0001' },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(agentRefused.isError).toBe(true);
    expect(JSON.parse(agentRefused.content[0]!.text)).toMatchObject({ error: 'offer_below_guard' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000);

    // Above it (95 %): every door sells.
    const bought = await protocolBuy(high);
    expect(bought.body).toMatch(/^ACCESS_NUMBER:\d+:\d+$/);
    const sold = await api.POST('/orders', { body: { service, country: high } });
    expect(sold.response.status).toBe(201);
    expect(sold.data).toMatchObject({ country: high, service });
    const agentBought = (await mcp.callTool({
      name: 'buy_number',
      arguments: { service, country: high, idempotency_key: 'key-floor-0002' },
    })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    expect(agentBought.isError).toBeFalsy();
    expect(agentBought.structuredContent).toMatchObject({ country: high, service });
    const priceCents = Math.round(sold.data!.price * 100);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000 - 3 * priceCents);
  });
});

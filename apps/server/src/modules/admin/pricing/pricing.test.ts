import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { anOffer, createListeningTestApp } from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { createJobs } from '../../../app/jobs';
import { salePriceCents } from '../../catalog/pricing';
import { PricingRulesStore } from '../../catalog/pricing-rules';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

function call(caller: TestUser, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: caller.headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

async function priceShown(user: TestUser, countryId: string, service: string): Promise<number> {
  const response = await t.app.inject({
    url: `/api/dashboard/services?countryID=${countryId}&operator=any`,
    headers: user.headers,
  });
  return response.json().services.find((entry: { id: string }) => entry.id === service).price;
}

describe('pricing in the console', () => {
  it('starts from the environment, saves an override with its history, and prices the catalog with it at once', async () => {
    t = await createListeningTestApp({ PRICE_MARKUP_PERCENT: '30' });
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const offer = anOffer(t);
    const source = t.ctx.catalog
      .services(offer.countryId)
      .find((entry) => entry.service === offer.service)!
      .providerOffers.find((candidate) => candidate.priceCents === offer.priceCents)!;
    const usdRate = t.ctx.providers.member(source.provider).usdRate;

    expect((await call(admin, 'GET', '/pricing')).json()).toMatchObject({
      rules: { default_percent: 30, overrides: [] },
      history: [],
    });
    const rules = {
      default_percent: 30,
      overrides: [{ service: offer.service, country_id: offer.countryId, percent: 100 }],
    };
    const preview = await call(admin, 'POST', '/pricing/preview', { ...rules, service: offer.service });
    expect(preview.statusCode, preview.body).toBe(200);
    const expectedCents = salePriceCents(source.upstreamCost, usdRate, 100);
    expect(
      preview.json().countries.find((row: { country_id: string }) => row.country_id === offer.countryId),
    ).toMatchObject({
      current_price: offer.priceCents / 100,
      new_price: expectedCents / 100,
    });
    // A preview changes nothing.
    expect(await priceShown(user, offer.countryId, offer.service)).toBe(offer.priceCents / 100);

    const saved = await call(admin, 'PUT', '/pricing', {
      ...rules,
      reason: 'Telegram in the US sells out too fast',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      rules,
      history: [
        {
          action: 'pricing.update',
          admin: admin.username,
          before: { default_percent: 30, overrides: [] },
          after: rules,
          reason: 'Telegram in the US sells out too fast',
        },
      ],
    });
    expect(await priceShown(user, offer.countryId, offer.service)).toBe(expectedCents / 100);
  });

  it('reaches another instance with its next catalog refresh', async () => {
    t = await createListeningTestApp({ PRICE_MARKUP_PERCENT: '30' });
    const admin = await createUser(t, { admin: true });
    const other = new PricingRulesStore({ defaultPercent: 30, overrides: new Map() });
    await call(admin, 'PUT', '/pricing', { default_percent: 45, overrides: [], reason: 'new season' });
    expect(other.current().defaultPercent).toBe(30);
    expect(await other.reload(t.ctx.database.db)).toBe(true);
    expect(other.current().defaultPercent).toBe(45);

    // The refresh job is where an instance picks them up: a job run with stale rules reprices.
    await t.ctx.pricing.reload(t.ctx.database.db);
    const refresh = createJobs(t.ctx).find((job) => job.name === 'catalog-refresh')!;
    await refresh.run();
    expect(t.ctx.pricing.current().defaultPercent).toBe(45);
  });

  it('refuses unknown services and countries, duplicate scopes, out-of-range percents and a missing reason', async () => {
    t = await createListeningTestApp();
    const admin = await createUser(t, { admin: true });
    for (const body of [
      {
        default_percent: 30,
        overrides: [{ service: 'nosuch', country_id: null, percent: 10 }],
        reason: 'x y z',
      },
      { default_percent: 30, overrides: [{ service: null, country_id: 'QQ', percent: 10 }], reason: 'x y z' },
      { default_percent: 30, overrides: [{ service: null, country_id: null, percent: 10 }], reason: 'x y z' },
      {
        default_percent: 30,
        overrides: [
          { service: 'tg', country_id: null, percent: 10 },
          { service: 'tg', country_id: null, percent: 20 },
        ],
        reason: 'x y z',
      },
      { default_percent: 1001, overrides: [], reason: 'x y z' },
      { default_percent: '30', overrides: [], reason: 'x y z' },
      { default_percent: 30, overrides: [] },
    ]) {
      const response = await call(admin, 'PUT', '/pricing', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call(admin, 'GET', '/pricing')).json().history).toEqual([]);
  });
});

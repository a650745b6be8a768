import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';
import {
  type FakeAnswer,
  type RecordedRequest,
  startFakeUpstream,
} from '../../../test/support/fake-upstream';
import { createListeningTestApp } from '../../../test/support/upstream';

/** Per-provider settings of the pool (`<NAME>_*`), seen from outside: what the upstreams receive and answer. */

let t: TestApp | undefined;
const upstreams: Array<Awaited<ReturnType<typeof startFakeUpstream>>> = [];
afterEach(async () => {
  if (t) await closeTestApp(t);
  t = undefined;
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

const json = (value: unknown): FakeAnswer => ({
  body: JSON.stringify(value),
  contentType: 'application/json',
});

/** An SMS-Activate-compatible upstream that sells one service in one country under ids of its own. */
async function upstreamSelling(country: string, service: string) {
  const upstream = await startFakeUpstream(({ action }: RecordedRequest) => {
    switch (action) {
      case 'getNumberV2':
        return json({ activationId: 5, phoneNumber: '15550001111', activationCost: 0.5 });
      case 'getCountries':
        return json({ [country]: { id: Number(country), eng: 'USA', visible: 1 } });
      case 'getOperators':
        return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      case 'getPrices':
        return json({ [country]: { [service]: { cost: 0.5, physicalCount: 7 } } });
      default:
        return { body: 'BAD_ACTION' };
    }
  });
  upstreams.push(upstream);
  return upstream;
}

describe('country ids and service codes of a provider', () => {
  it('let two providers of one pool sell the same country and service under their own ids', async () => {
    const alpha = await upstreamSelling('12', 'telegram');
    const beta = await upstreamSelling('187', 'tgm');
    t = await createTestApp({
      SMS_PROVIDERS: 'alpha,beta',
      ALPHA_KIND: 'smsactivate',
      ALPHA_URL: alpha.url,
      ALPHA_KEY: 'alpha-key',
      ALPHA_COUNTRY_IDS: 'US=12',
      ALPHA_SERVICE_CODES: 'tg=telegram',
      BETA_KIND: 'smsactivate',
      BETA_URL: beta.url,
      BETA_KEY: 'beta-key',
      BETA_SERVICE_CODES: 'tg=tgm',
    });
    for (const name of ['alpha', 'beta']) {
      const provider = t.ctx.providers.get(name);
      expect(await provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 0.5 })).toMatchObject({
        activationId: '5',
      });
      expect((await provider.getCatalog()).offers).toEqual([
        { countryId: 'US', service: 'tg', cost: 0.5, stock: 7 },
      ]);
    }
    const bought = (upstream: typeof alpha) => {
      const request = upstream.requests.find((entry) => entry.action === 'getNumberV2')!;
      return [request.params.get('country'), request.params.get('service')];
    };
    expect(bought(alpha)).toEqual(['12', 'telegram']);
    expect(bought(beta)).toEqual(['187', 'tgm']);
  });
});

describe('a simulator error style', () => {
  it("makes the built-in simulator tell refusals Hero's way, its answers staying SMS-Activate's", async () => {
    t = await createListeningTestApp({ SIM_A_ERROR_STYLE: 'hero' });
    const call = (params: Record<string, string>) =>
      t!.app.inject({
        url: '/simulator/stubs/handler_api.php',
        query: { api_key: t!.config.SMS_PROVIDER_KEY, ...params },
      });
    const refused = await call({ action: 'getStatus', id: '1' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ title: 'NOT_FOUND' });
    expect((await call({ action: 'getBalance' })).body).toMatch(/^ACCESS_BALANCE:\d+\.\d{2}$/);
    // And the adapter reads that refusal as the refusal it is.
    await expect(t.ctx.providers.get('sim-a').getActivationState('1')).rejects.toMatchObject({
      kind: 'not_found',
      outcomeUnknown: false,
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { createListeningTestApp } from '../../../test/support/upstream';

/** Per-provider settings of the pool (`<NAME>_*`), seen from outside: what the upstreams receive and answer. */

let t: TestApp | undefined;
afterEach(async () => {
  if (t) await closeTestApp(t);
  t = undefined;
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

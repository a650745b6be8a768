import { protocolIds } from '@simcode/sms-activate-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey, protocolCall, protocolUrl } from '../../../test/support/reseller';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { balanceOf } from '../accounts/ledger';

/**
 * The protocol's actions and forms that no npm client calls, in the documented form over raw HTTP: what
 * real integrations of the family send and read.
 */
let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

async function setUp(env: Record<string, string> = {}) {
  t = await createListeningTestApp(env);
  const user = await createUser(t);
  const { secret } = await createApiKey(t, user);
  const call = async (action: string, params: Record<string, string | number> = {}) =>
    (await protocolCall(t, secret, action, params)).body;
  return { user, secret, call };
}

describe('the catalog as the family lists it', () => {
  it('tells the stock per service (getNumbersStatus), none of it forwarding calls', async () => {
    const { call } = await setUp();
    const gb = protocolIds.countryOf('GB');
    const stock = JSON.parse(await call('getNumbersStatus', { country: gb }));
    const offers = t.ctx.catalog.services('GB');
    expect(Object.keys(stock)).toHaveLength(offers.length * 2);
    for (const offer of offers) {
      const service = protocolIds.serviceOf(offer.service);
      expect(stock[`${service}_0`]).toBe(offer.stock);
      expect(stock[`${service}_1`]).toBe(0);
    }
    expect(await call('getNumbersStatus', { country: 9999 })).toBe('BAD_COUNTRY');
  });

  it('names countries in Russian and Chinese, and lists prices per service (getPricesVerification)', async () => {
    const { call } = await setUp();
    const countries = JSON.parse(await call('getCountries'));
    expect(countries[String(protocolIds.countryOf('GB'))]).toMatchObject({
      eng: 'United Kingdom',
      rus: 'Великобритания',
      chn: '英国',
      retry: 1,
    });

    const offer = anOffer(t, 'GB');
    const service = protocolIds.serviceOf(offer.service);
    const gb = String(protocolIds.countryOf('GB'));
    const verification = JSON.parse(await call('getPricesVerification', { service, freePrice: 'true' }));
    expect(Object.keys(verification)).toEqual([service]);
    expect(verification[service][gb]).toEqual({
      count: expect.any(Number),
      price: offer.priceCents / 100,
      freePriceMap: { [(offer.priceCents / 100).toFixed(2)]: verification[service][gb].count },
    });
    // getPrices is the same list the other way round.
    expect(JSON.parse(await call('getPrices', { service }))[gb][service]).toEqual({
      cost: offer.priceCents / 100,
      count: verification[service][gb].count,
    });
  });

  it('gives the Free Price map of the top countries when asked with freePrice', async () => {
    const { call } = await setUp();
    const service = protocolIds.serviceOf(anOffer(t, 'GB').service);
    const plain = JSON.parse(await call('getTopCountriesByService', { service }));
    expect(plain['0']).not.toHaveProperty('freePriceMap');
    const top = JSON.parse(await call('getTopCountriesByService', { service, freePrice: 'true' }));
    expect(Object.keys(top).length).toBeGreaterThan(0);
    for (const entry of Object.values(top) as Array<Record<string, number> & { freePriceMap: object }>)
      expect(entry.freePriceMap).toEqual({ [entry.retail_price!.toFixed(2)]: entry.count });
  });
});

describe('bodies as PHP reads them', () => {
  it('reads a multipart/form-data body like a form', async () => {
    const { user, secret } = await setUp();
    await fundUser(t.ctx.database, user.id, 1234);
    const form = new FormData();
    form.set('api_key', secret);
    form.set('action', 'getBalance');
    const answer = await fetch(protocolUrl(t), { method: 'POST', body: form });
    expect(await answer.text()).toBe('ACCESS_BALANCE:12.34');

    const broken = await fetch(protocolUrl(t), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=nothing-here' },
      body: 'not a multipart body',
    });
    expect([broken.status, await broken.text()]).toEqual([200, 'BAD_ACTION']);
  });
});

describe('another SMS on every kind of supplier', () => {
  it('delivers the next SMS on an order a 5sim-kind supplier holds, and the flags say so', async () => {
    const { user, call } = await setUp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'GB=sim-b' });
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const bought = JSON.parse(
      await call('getNumberV2', {
        service: protocolIds.serviceOf(offer.service),
        country: protocolIds.countryOf('GB'),
      }),
    );
    const id = Number(bought.activationId);
    const order = (await t.ctx.activations.find(user.id, id))!;
    expect(order.provider).toBe('sim-b');
    expect(bought.canGetAnotherSms).toBe('1');
    expect(t.ctx.activations.canGetAnotherSms(order)).toBe(true);

    // 5sim pushes nothing: the sync reads the order's SMS.
    const smsFromSupplier = async (code: string) => {
      await simulatorControl(
        t,
        'sms',
        { activationId: order.providerActivationId, code, text: `Code ${code}` },
        'sim-b',
      );
      await activationSync(t, { provider: 'sim-b' }).run();
    };
    await smsFromSupplier('1111');
    expect(await call('getStatus', { id })).toBe('STATUS_OK:1111');
    expect(await call('setStatus', { id, status: 3 })).toBe('ACCESS_RETRY_GET');
    expect(await call('getStatus', { id })).toBe('STATUS_WAIT_RETRY:1111');
    expect(JSON.parse(await call('getActiveActivations')).activeActivations).toEqual([
      expect.objectContaining({ activationId: String(id), canGetAnotherSms: '1' }),
    ]);
    await smsFromSupplier('2222');
    expect(await call('getStatus', { id })).toBe('STATUS_OK:2222');
    expect(JSON.parse(await call('getActiveActivations')).activeActivations).toEqual([
      expect.objectContaining({ activationId: String(id), smsCode: '2222', repeated: '1' }),
    ]);

    // Finished, the number gets no more: the flag and status 3 both say so.
    expect(await call('setStatus', { id, status: 6 })).toBe('ACCESS_ACTIVATION');
    const finished = (await t.ctx.activations.find(user.id, id))!;
    expect(t.ctx.activations.canGetAnotherSms(finished)).toBe(false);
    expect(await call('setStatus', { id, status: 3 })).toBe('BAD_STATUS');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);
  });
});

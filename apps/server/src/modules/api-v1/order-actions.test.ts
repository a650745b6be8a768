import { randomUUID } from 'node:crypto';
import { createSimCodeClient } from '@simcode/client';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { aRentOffer, quietSimulator, rentSync, upstreamRentId } from '../../../test/support/rents';
import { createApiKey } from '../../../test/support/reseller';
import {
  anOffer,
  createListeningTestApp,
  simulatorControl,
  untilDelivered,
} from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { activations, ledgerEntries } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

type Api = ReturnType<typeof createSimCodeClient>;

async function apiOf(user: TestUser): Promise<Api> {
  const key = await createApiKey(t, user);
  return createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: key.secret });
}

/** The simulator lets a number be cancelled at once, so a cancel is the buyer's to make at any time. */
const cancelAtOnce = { SIMULATOR_EARLY_CANCEL_MS: '0' };

const path = (id: number) => ({ params: { path: { id: String(id) } } });

/** How many ledger entries of a kind an order or rent has: a refund is paid once or not at all. */
async function entriesOf(referenceType: 'activation' | 'rent', id: number, kind: 'purchase' | 'refund') {
  const rows = await t.ctx.database.db
    .select()
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.referenceType, referenceType),
        eq(ledgerEntries.referenceId, String(id)),
        eq(ledgerEntries.kind, kind),
      ),
    );
  return rows.length;
}

/** Sends an SMS to the order's number at the supplier and waits until the order holds its code. */
async function smsArrives(api: Api, orderId: number, code: string): Promise<void> {
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
  await simulatorControl(t, 'sms', { activationId: order!.providerActivationId, code, text: `Code ${code}` });
  await untilDelivered(t, async () => (await api.GET('/orders/{id}', path(orderId))).data?.code, code);
}

/** A refusal of the JSON API: RFC 9457 problem details with the product's code beside them. */
function expectProblem(answer: { response: Response; error?: unknown }, status: number, code: string): void {
  expect(answer.response.status).toBe(status);
  expect(answer.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.error).toMatchObject({
    type: `/docs/api#error-${code}`,
    status,
    title: expect.any(String),
    detail: expect.any(String),
    code,
    success: false,
  });
}

describe('the JSON API’s actions on an order', () => {
  it('cancels a waiting order once: refunded once, a replay with its Idempotency-Key answers the same', async () => {
    t = await createListeningTestApp(cancelAtOnce);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const api = await apiOf(user);
    const order = (await api.POST('/orders', { body: { service: offer.service, country: 'GB' } })).data!;
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);

    const idempotencyKey = randomUUID();
    const canceled = await api.POST('/orders/{id}/cancel', {
      ...path(order.id),
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(canceled.response.status).toBe(200);
    expect(canceled.data).toMatchObject({ id: order.id, status: 'canceled' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);

    const replay = await api.POST('/orders/{id}/cancel', {
      ...path(order.id),
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(canceled.data);

    // Asked again without the key, the cancel is a new request, and the order is already cancelled.
    expectProblem(await api.POST('/orders/{id}/cancel', path(order.id)), 409, 'already_canceled');
    expect(await entriesOf('activation', order.id, 'refund')).toBe(1);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
  });

  it('asks for another SMS only after a code, delivers the next one, and a finish keeps the money', async () => {
    t = await createListeningTestApp(cancelAtOnce);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const api = await apiOf(user);
    const order = (await api.POST('/orders', { body: { service: offer.service, country: 'GB' } })).data!;

    expectProblem(await api.POST('/orders/{id}/another-sms', path(order.id)), 409, 'no_code_yet');
    expectProblem(await api.POST('/orders/{id}/finish', path(order.id)), 409, 'no_code_yet');

    await smsArrives(api, order.id, '314159');
    // The code is the buyer's: the order can no longer be given back for its money.
    expectProblem(await api.POST('/orders/{id}/cancel', path(order.id)), 409, 'code_arrived');

    const another = await api.POST('/orders/{id}/another-sms', path(order.id));
    expect(another.response.status).toBe(200);
    expect(another.data).toMatchObject({ status: 'received', code: '314159', awaiting_another_sms: true });
    await smsArrives(api, order.id, '265358');
    const read = (await api.GET('/orders/{id}', path(order.id))).data!;
    expect(read.sms.map((sms) => sms.code)).toEqual(['314159', '265358']);
    expect(read.awaiting_another_sms).toBeFalsy();

    const finished = await api.POST('/orders/{id}/finish', path(order.id));
    expect(finished.response.status).toBe(200);
    expect(finished.data).toMatchObject({ status: 'completed', code: '265358' });
    // Finishing twice is no error, and neither finish nor another SMS moves money.
    expect((await api.POST('/orders/{id}/finish', path(order.id))).data?.status).toBe('completed');
    expect(await entriesOf('activation', order.id, 'refund')).toBe(0);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);
  });

  it('answers 404 for another user’s order and rent, whatever the action, and touches nothing', async () => {
    t = await createListeningTestApp(cancelAtOnce);
    await quietSimulator(t);
    const owner = await createUser(t);
    await fundUser(t.ctx.database, owner.id, 100_000);
    const offer = anOffer(t, 'GB');
    const rentOffer = await aRentOffer(t, 'US', 24);
    const ownerApi = await apiOf(owner);
    const order = (await ownerApi.POST('/orders', { body: { service: offer.service, country: 'GB' } })).data!;
    const rent = (
      await ownerApi.POST('/rents', {
        body: { service: rentOffer.service, country: 'US', period: '24 hours' },
      })
    ).data!;
    const paid = await balanceOf(t.ctx.database.db, owner.id);

    const stranger = await createUser(t);
    await fundUser(t.ctx.database, stranger.id, 1000);
    const strangerApi = await apiOf(stranger);
    expectProblem(await strangerApi.POST('/orders/{id}/cancel', path(order.id)), 404, 'not_found');
    expectProblem(await strangerApi.POST('/orders/{id}/finish', path(order.id)), 404, 'not_found');
    expectProblem(await strangerApi.POST('/orders/{id}/another-sms', path(order.id)), 404, 'not_found');
    expectProblem(await strangerApi.POST('/rents/{id}/cancel', path(rent.id)), 404, 'not_found');

    expect((await ownerApi.GET('/orders/{id}', path(order.id))).data?.status).toBe('waiting');
    expect((await ownerApi.GET('/rents/{id}', path(rent.id))).data?.status).toBe(rent.status);
    expect(await balanceOf(t.ctx.database.db, owner.id)).toBe(paid);
    expect(await balanceOf(t.ctx.database.db, stranger.id)).toBe(1000);
  });
});

describe('the JSON API’s cancel of a rent', () => {
  it('refunds a rent cancelled before any SMS once, and refuses one that received an SMS', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const offer = await aRentOffer(t, 'US', 24);
    const api = await apiOf(user);
    const rentBody = { body: { service: offer.service, country: 'US', period: '24 hours' } };

    const rent = (await api.POST('/rents', rentBody)).data!;
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000 - Math.round(rent.price * 100));
    const idempotencyKey = randomUUID();
    const canceled = await api.POST('/rents/{id}/cancel', {
      ...path(rent.id),
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(canceled.response.status).toBe(200);
    expect(canceled.data).toMatchObject({ id: rent.id, status: 'canceled' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000);
    const replay = await api.POST('/rents/{id}/cancel', {
      ...path(rent.id),
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(canceled.data);
    expectProblem(await api.POST('/rents/{id}/cancel', path(rent.id)), 409, 'ended');
    expect(await entriesOf('rent', rent.id, 'refund')).toBe(1);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000);

    const used = (await api.POST('/rents', rentBody)).data!;
    await simulatorControl(t, 'sms', { rentId: await upstreamRentId(t, String(used.id)), text: 'code 4321' });
    // Pushed to the rent's webhook; should the push be late, the sync reads it from the supplier.
    await expect
      .poll(
        async () => {
          const received = (await api.GET('/rents/{id}', path(used.id))).data?.sms_received;
          if (!received) await rentSync(t).run();
          return received;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expectProblem(await api.POST('/rents/{id}/cancel', path(used.id)), 409, 'sms_arrived');
    expect(await entriesOf('rent', used.id, 'refund')).toBe(0);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000 - Math.round(used.price * 100));
  });
});

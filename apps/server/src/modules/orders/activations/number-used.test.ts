import { numberMessages, orderReasonText } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  anOffer,
  createListeningTestApp,
  simulatorControl,
  untilDelivered,
} from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { activations } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const EARLY_CANCEL_MS = 120_000;

function post(user: TestUser, url: string, payload: object = {}) {
  return t.app.inject({ method: 'POST', url: `/api/dashboard${url}`, headers: user.headers, payload });
}

async function buyOne(user: TestUser) {
  const bought = await post(user, '/buy-number', {
    countryID: 'us',
    operator: 'any',
    service: anOffer(t, 'US').service,
  });
  expect(bought.statusCode, bought.body).toBe(200);
  return bought.json().number;
}

describe('a number the service refused as already used', () => {
  it.each([
    ['sim-a', 'cancel', 'an SMS-Activate supplier cancels it'],
    ['sim-b', 'ban', '5sim bans it'],
  ])(
    'is given back at %s (%s) and refunded at once, once the supplier allows, without a ticket: %s',
    // Two suppliers' catalogs load first: on a busy machine that alone can take half a minute.
    { timeout: 60_000 },
    async (provider, call) => {
      t = await createListeningTestApp({
        SMS_PROVIDERS: 'sim-a,sim-b',
        SMS_ROUTING_PINS: `US=${provider}`,
        SIMULATOR_EARLY_CANCEL_MS: String(EARLY_CANCEL_MS),
      });
      const user = await createUser(t);
      await fundUser(t.ctx.database, user.id, 10_000);
      const number = await buyOne(user);
      const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, number.id));
      expect(order!.provider).toBe(provider);
      // The number says when its supplier first allows giving it back.
      expect(number.cancel_available_at).toBe(
        new Date(order!.createdAt.getTime() + EARLY_CANCEL_MS).toISOString(),
      );
      const paid = await balanceOf(t.ctx.database.db, user.id);

      const early = await post(user, `/numbers/${number.id}/report`, { kind: 'number_used' });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ success: false, code: 'early_cancel' });
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);

      t.clock.advance(EARLY_CANCEL_MS);
      // Twice at once, as a double click sends it: one refund, and both answers say so.
      const answers = await Promise.all([
        post(user, `/numbers/${number.id}/report`, { kind: 'number_used' }),
        post(user, `/numbers/${number.id}/report`, { kind: 'number_used' }),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toMatchObject({
          success: true,
          refunded: true,
          number: {
            id: number.id,
            status: 'canceled',
            status_reason: orderReasonText('activation', 'number_used'),
            cancel_available_at: null,
          },
        });
        expect(answer.json().ticket_id).toBeUndefined();
      }
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid + order!.priceCents);
      const calls = await t.ctx.activations.historyOf(number.id);
      expect(calls.filter((entry) => entry.action === call && entry.outcome === 'ok')).toHaveLength(1);
      const { activation } = (await simulatorControl(
        t,
        'state',
        { activationId: order!.providerActivationId },
        provider,
      )) as { activation: { status: string; banned?: boolean } };
      expect(activation.status).toBe('cancelled');
      expect(activation.banned ?? false).toBe(call === 'ban');

      // One reason, the same words on the money pages.
      const ledger = await t.app.inject({ url: '/api/dashboard/ledger', headers: user.headers });
      expect(ledger.json().entries[0]).toMatchObject({ kind: 'refund', refund_reason: 'number_used' });
      const csv = await t.app.inject({ url: '/api/dashboard/ledger.csv', headers: user.headers });
      expect(csv.body).toMatch(/,refund,.*,number_used,/);
    },
  );

  it('opens a ticket instead once a code arrived: support decides about a number that got one', async () => {
    t = await createListeningTestApp({ SIMULATOR_EARLY_CANCEL_MS: '0' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const number = await buyOne(user);
    expect(number.cancel_available_at).toBeNull();
    const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, number.id));
    await simulatorControl(t, 'sms', { activationId: order!.providerActivationId, code: '515151' });
    const list = async () =>
      (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers }))
        .json()
        .numbers.find((entry: { id: number }) => entry.id === number.id).code;
    await untilDelivered(t, list, '515151');
    const paid = await balanceOf(t.ctx.database.db, user.id);

    const reported = await post(user, `/numbers/${number.id}/report`, { kind: 'number_used' });
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toMatchObject({ success: true, ticket_id: expect.any(Number) });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);
    // The plain Cancel of such a number is refused with the sentence the page shows beside its button.
    const cancel = await post(user, `/numbers/${number.id}/cancel`);
    expect(cancel.json()).toMatchObject({ code: 'code_arrived', error: numberMessages.cancelAfterCode });
  });
});

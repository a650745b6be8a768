import { ACTIVATION_LIFETIME_MS } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../../test/support/upstream';
import { createUser } from '../../../../test/support/users';
import { activationMessages, activations } from '../../../db/schema';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

describe('a code delivered in the last seconds of an order', () => {
  it('wins over the refund when the 5sim history shows the order billed with it', {
    timeout: 60_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'US=sim-b' });
    const buyer = await createUser(t);
    await fundUser(t.ctx.database, buyer.id, 10_000);
    const offer = anOffer(t, 'US');
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: buyer.headers,
      payload: { countryID: 'us', operator: 'any', service: offer.service },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const orderId = bought.json().number.id as number;
    const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
    expect(order!.provider).toBe('sim-b');

    // Five seconds before its end the code arrives; our sweep next runs after the supplier closed it.
    t.clock.set(order!.createdAt.getTime() + ACTIVATION_LIFETIME_MS - 5000);
    await simulatorControl(t, 'sms', { activationId: order!.providerActivationId, code: '424242' }, 'sim-b');
    t.clock.advance(30_000);
    const simulator = t.ctx.simulators.inProcess.find((mounted) => mounted.name === 'sim-b')!.simulator;
    await simulator.tick();
    const { activation } = (await simulatorControl(
      t,
      'state',
      { activationId: order!.providerActivationId },
      'sim-b',
    )) as { activation: { status: string } };
    expect(activation.status).toBe('finished');

    const sync = activationSync(t, { provider: 'sim-b' });
    for (let round = 0; round < 3; round += 1) {
      await sync.run();
      t.clock.advance(3000);
    }
    const [settled] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
    expect(['received', 'completed']).toContain(settled!.status);
    const messages = await t.ctx.database.db
      .select()
      .from(activationMessages)
      .where(eq(activationMessages.activationId, orderId));
    expect(messages.map((message) => message.code)).toEqual(['424242']);
  });
});

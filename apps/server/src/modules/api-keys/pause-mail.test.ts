import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSimCodeClient } from '@simcode/client';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey } from '../../../test/support/reseller';
import { activationSync, anOffer, createListeningTestApp } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { createMailDelivery } from '../mail/delivery';
import { renderMail } from '../mail/templates';
import { createMailTransport } from '../mail/transport';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const TWENTY_ONE_MINUTES_MS = 21 * 60_000;

/** Sends what the queue holds to the outbox and answers the pause mails in it, parsed. */
async function pauseMailsInOutbox() {
  const delivery = createMailDelivery({
    db: t.ctx.database.db,
    transport: createMailTransport(t.config),
    clock: t.clock,
    log: t.app.log,
    appName: t.config.APP_NAME,
    publicUrl: t.config.PUBLIC_URL,
  });
  await delivery.run();
  const files = await readdir(t.config.mailOutboxDir).catch(() => []);
  const mails = await Promise.all(
    files.map(async (file) => simpleParser(await readFile(path.join(t.config.mailOutboxDir, file)))),
  );
  return mails.filter((mail) => mail.subject?.includes('paused itself'));
}

describe('the mail of a key that paused itself', () => {
  it('goes out once per pause, names the key and links to the page that resumes it', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 5000);
    const offer = anOffer(t, 'GB');
    const key = await createApiKey(t, user, { name: 'night bot', stop_after_failures: 2 });
    const api = createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: key.secret });

    /** Buys `count` orders through the key and lets them all end without a code. */
    async function failOrders(count: number) {
      for (let order = 0; order < count; order += 1) {
        const bought = await api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
        expect(bought.response.status).toBe(201);
      }
      t.clock.advance(TWENTY_ONE_MINUTES_MS);
      await activationSync(t).run();
    }

    await failOrders(1);
    expect(await pauseMailsInOutbox()).toEqual([]);

    await failOrders(1);
    const [first, ...others] = await pauseMailsInOutbox();
    expect(others).toEqual([]);
    expect(first!.subject).toBe('SimCode: API key "night bot" paused itself');
    expect(first!.text).toContain(`"night bot" (${key.secret.slice(0, 11)}…)`);
    expect(first!.text).toContain('2 orders in a row');
    const link = `${t.config.PUBLIC_URL}/dashboard/api`;
    expect(first!.text).toContain(link);
    expect(first!.html).toContain(`href="${link}"`);

    // Refused purchases while paused end no order, so no further mail.
    const refused = await api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
    expect(refused.response.status).toBe(403);
    expect(await pauseMailsInOutbox()).toHaveLength(1);

    const resumed = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/api-keys/${key.id}/resume`,
      headers: user.headers,
    });
    expect(resumed.statusCode).toBe(200);
    await failOrders(2);
    expect(await pauseMailsInOutbox()).toHaveLength(2);
  });

  it('is written in the owner’s language, with the plural the streak needs', () => {
    const payload = { keyId: 7, name: 'bot', prefix: 'sc_abcdefgh', failures: 3 };
    const context = { appName: 'SimCode', publicUrl: 'https://simcode.example' };
    const russian = renderMail('api_key_paused', payload, { ...context, language: 'ru' });
    expect(russian.subject).toBe('SimCode: API-ключ «bot» приостановлен');
    expect(russian.text).toContain('3 заказа подряд');
    expect(russian.text).toContain('https://simcode.example/dashboard/api');
    const chinese = renderMail('api_key_paused', { ...payload, failures: 1 }, { ...context, language: 'zh' });
    expect(chinese.text).toContain('连续 1 个订单');
    expect(
      renderMail('api_key_paused', { ...payload, failures: 1 }, { ...context, language: 'en' }).text,
    ).toContain('1 order in a row');
  });
});

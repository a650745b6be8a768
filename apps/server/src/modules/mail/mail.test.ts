import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { accountApiPaths, CAPTCHA_FIELD, formatCents, tokenFromFragment } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { solveCaptcha } from '../../../test/support/captcha';
import { createUser } from '../../../test/support/users';
import { loadConfig } from '../../config';
import { activationMessages, activations, mailQueue } from '../../db/schema';
import { applyLedgerChange } from '../accounts/ledger';
import { createMailDelivery, MAIL_MAX_ATTEMPTS, retryDelayMs } from './delivery';
import { createMailTransport, type MailTransport, type OutgoingMail } from './transport';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.app.close();
});

function deliveryWith(transport: MailTransport) {
  return createMailDelivery({
    db: t.ctx.database.db,
    transport,
    clock: t.clock,
    log: t.app.log,
    appName: t.config.APP_NAME,
    publicUrl: t.config.PUBLIC_URL,
  });
}

async function askForReset(email: string, acceptLanguage?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/password/forgot',
    payload: { email, [CAPTCHA_FIELD]: await solveCaptcha(t.app) },
    ...(acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : {}),
  });
  expect(response.statusCode).toBe(200);
  // The link is made after the answer left: wait for it to be queued.
  await t.ctx.account.resetsSent();
}

describe('the outbox transport', () => {
  it('writes the reset mail as an .eml file that /dev/outbox lists and shows with its link', async () => {
    const user = await createUser(t);
    await askForReset(user.email);
    expect(await deliveryWith(createMailTransport(t.config)).run()).toBe(1);

    const files = await readdir(t.config.mailOutboxDir);
    expect(files).toHaveLength(1);
    const parsed = await simpleParser(await readFile(path.join(t.config.mailOutboxDir, files[0]!)));
    expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe(user.email);
    expect(parsed.subject).toBe('SimCode: reset your password');
    const link = /https?:\/\/\S+\/reset-password#token=\S+/.exec(parsed.text ?? '')?.[0] ?? '';
    expect(tokenFromFragment(new URL(link).hash)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parsed.html).toContain(`href="${link}"`);

    const list = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(user.email);
    const message = await t.app.inject({ method: 'GET', url: `/dev/outbox/${files[0]}` });
    expect(message.body).toContain(`href="${link}"`);
    expect((await t.app.inject({ method: 'GET', url: '/dev/outbox/..%2Fsecrets.json' })).statusCode).toBe(
      404,
    );
  });

  it('is not served in production, nor with the SMTP transport', async () => {
    const production = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: t.config.DATA_DIR,
      JWT_SECRET: 'j'.repeat(32),
      ALTCHA_HMAC_KEY: 'a'.repeat(32),
      SMS_WEBHOOK_SECRET: 'w'.repeat(16),
      DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
      PUBLIC_URL: 'https://simcode.example',
      SIMULATOR_ALLOW_IN_PRODUCTION: 'true',
      SANDBOX_ALLOW_IN_PRODUCTION: 'true',
      MAIL_OUTBOX_ALLOW_IN_PRODUCTION: 'true',
    });
    expect(production.devOutboxEnabled).toBe(false);
    const smtp = await createTestApp({ MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://127.0.0.1:2525' });
    try {
      const outboxRoute = { method: 'GET' as const, url: '/dev/outbox/:name' };
      expect(t.app.hasRoute(outboxRoute)).toBe(true);
      expect(smtp.app.hasRoute(outboxRoute)).toBe(false);
    } finally {
      await smtp.app.close();
    }
  });
});

describe('the mail job', () => {
  it('retries a failed send later, with backoff, and sends it once the server answers', async () => {
    const user = await createUser(t);
    await askForReset(user.email);
    const sent: OutgoingMail[] = [];
    let failing = true;
    const delivery = deliveryWith({
      async send(mail) {
        if (failing) throw new Error('connection refused');
        sent.push(mail);
      },
      close() {},
    });
    expect(await delivery.run()).toBe(0);
    const [row] = await t.ctx.database.db.select().from(mailQueue);
    expect(row).toMatchObject({ attempts: 1, sentAt: null, failedAt: null, lastError: 'connection refused' });
    expect(row!.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));

    failing = false;
    expect(await delivery.run()).toBe(0); // not due yet
    t.clock.advance(retryDelayMs(1));
    expect(await delivery.run()).toBe(1);
    expect(await delivery.run()).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(user.email);
  });

  it('gives a message up after its last attempt', async () => {
    const user = await createUser(t);
    await askForReset(user.email);
    const delivery = deliveryWith({
      async send() {
        throw new Error('mailbox unavailable');
      },
      close() {},
    });
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      await delivery.run();
      t.clock.advance(retryDelayMs(attempt));
    }
    const [row] = await t.ctx.database.db.select().from(mailQueue);
    expect(row).toMatchObject({
      attempts: MAIL_MAX_ATTEMPTS,
      sentAt: null,
      lastError: 'mailbox unavailable',
    });
    expect(row!.failedAt).not.toBeNull();
    await delivery.run();
    expect((await t.ctx.database.db.select().from(mailQueue))[0]!.attempts).toBe(MAIL_MAX_ATTEMPTS);
  });
});

describe('mail the database queues itself', () => {
  it('queues one receipt per credited top-up, with its amount and balance', async () => {
    const user = await createUser(t);
    await t.ctx.database.db.transaction((tx) =>
      applyLedgerChange(tx, {
        userId: user.id,
        amountCents: 2500,
        kind: 'topup',
        referenceType: 'payment',
        referenceId: '999',
        idempotencyKey: 'topup:test-1',
      }),
    );
    const rows = await t.ctx.database.db.select().from(mailQueue);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: user.id, template: 'topup_receipt' });
    expect(rows[0]!.payload).toMatchObject({ amountCents: 2500, balanceAfterCents: 2500 });
    const sent: OutgoingMail[] = [];
    // The database's trigger dates it by the database's clock, which the test's clock started before.
    t.clock.set(Date.now() + 1000);
    await deliveryWith({ send: async (mail) => void sent.push(mail), close() {} }).run();
    expect(sent[0]!.text).toContain(`Your balance is now ${formatCents(2500)}.`);
  });

  it('queues "your number received a code" only for users who asked for it', async () => {
    const keen = await createUser(t);
    const quiet = await createUser(t);
    await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: keen.headers,
      payload: { code_emails: true },
    });
    for (const user of [keen, quiet]) {
      const [order] = await t.ctx.database.db
        .insert(activations)
        .values({
          userId: user.id,
          provider: 'sim-a',
          countryId: '187',
          service: 'tg',
          phoneNumber: '15550001111',
          priceCents: 50,
          upstreamMaxPrice: '0.3',
          status: 'waiting',
          expiresAt: new Date(Date.now() + 60_000),
        })
        .returning();
      await t.ctx.database.db.insert(activationMessages).values({
        activationId: order!.id,
        code: '482913',
        text: 'Your code is 482913',
        receivedAt: new Date(),
        dedupeKey: `test-${user.id}`,
      });
    }
    const rows = await t.ctx.database.db
      .select()
      .from(mailQueue)
      .where(eq(mailQueue.template, 'code_received'));
    expect(rows.map((row) => row.userId)).toEqual([keen.id]);
    expect(rows[0]!.payload).toMatchObject({ code: '482913', phoneNumber: '15550001111', service: 'tg' });
  });
});

describe('the SMTP transport', () => {
  it('hands the reset mail to a real SMTP server, which receives the link', async () => {
    const received: Buffer[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };
    const transport = createMailTransport({
      ...t.config,
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
    });
    try {
      const user = await createUser(t);
      await askForReset(user.email);
      expect(await deliveryWith(transport).run()).toBe(1);
      expect(received).toHaveLength(1);
      const parsed = await simpleParser(received[0]!);
      expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe(user.email);
      expect(parsed.from?.value).toEqual([{ name: 'SimCode', address: 'no-reply@simcode.local' }]);
      expect(parsed.text).toMatch(/\/reset-password#token=[A-Za-z0-9_-]{43}/);
      const [row] = await t.ctx.database.db.select().from(mailQueue);
      expect(row!.sentAt).not.toBeNull();
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the language of a mail', () => {
  function memoryTransport() {
    const sent: OutgoingMail[] = [];
    return { sent, transport: { send: async (mail: OutgoingMail) => void sent.push(mail), close() {} } };
  }

  async function saveLanguage(user: { headers: { authorization: string } }, language: string) {
    const response = await t.app.inject({
      method: 'PUT',
      url: accountApiPaths.language,
      headers: user.headers,
      payload: { language },
    });
    expect(response.statusCode).toBe(200);
  }

  it("is the recipient's saved one, whatever language the request was in", async () => {
    const user = await createUser(t);
    await saveLanguage(user, 'ru');
    await askForReset(user.email, 'zh-CN');
    const { sent, transport } = memoryTransport();
    expect(await deliveryWith(transport).run()).toBe(1);
    expect(sent[0]!.subject).toBe('SimCode: сброс пароля');
    expect(sent[0]!.text).toContain('Кто-то запросил сброс пароля от вашего аккаунта.');
    expect(sent[0]!.text).toContain('действует 60 минут');
    expect(sent[0]!.html).toContain('<p>Если вы не запрашивали сброс');
  });

  it("is the causing request's one for a user who saved none, and English without either", async () => {
    const chinese = await createUser(t);
    const english = await createUser(t);
    await askForReset(chinese.email, 'zh-CN,zh;q=0.9');
    await askForReset(english.email);
    const { sent, transport } = memoryTransport();
    expect(await deliveryWith(transport).run()).toBe(2);
    const subjectOf = (email: string) => sent.find((mail) => mail.to === email)?.subject;
    expect(subjectOf(chinese.email)).toBe('SimCode: 重置密码');
    expect(subjectOf(english.email)).toBe('SimCode: reset your password');
  });

  it('writes money and dates as the language does', async () => {
    const user = await createUser(t);
    await saveLanguage(user, 'ru');
    await t.ctx.database.db.transaction((tx) =>
      applyLedgerChange(tx, {
        userId: user.id,
        amountCents: 123456,
        kind: 'topup',
        referenceType: 'payment',
        referenceId: '1001',
        idempotencyKey: 'topup:language-1',
      }),
    );
    t.clock.set(Date.now() + 1000);
    const { sent, transport } = memoryTransport();
    await deliveryWith(transport).run();
    const money = new Intl.NumberFormat('ru', { style: 'currency', currency: 'USD' }).format(1234.56);
    expect(sent[0]!.subject).toBe(`SimCode: квитанция о пополнении на ${money}`);
    expect(sent[0]!.text).toContain(`Ваш баланс: ${money}.`);
    expect(sent[0]!.text).toMatch(/Дата: \d{1,2} [а-я]+ \d{4} г\./);
  });
});

import { encodeSignedWebhook } from '@simcode/cryptomus-protocol';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant } from '../../../test/support/money';
import { createPaymentsTestApp, postWebhook, sandboxControl } from '../../../test/support/payments';
import { createUser, type TestUser } from '../../../test/support/users';
import { depositAddresses, ledgerEntries, payments } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { createPaymentReconciliation, RECHECK_AFTER_MS } from './reconciliation';

let t: TestApp | undefined;
afterEach(async () => {
  if (!t) return;
  await assertLedgerInvariant(t.ctx.database);
  await closeTestApp(t);
  t = undefined;
});

const db = () => t!.ctx.database.db;

function requestAddress(user: TestUser, body: Record<string, unknown>) {
  return t!.app.inject({
    method: 'POST',
    url: '/api/topup/deposit-addresses',
    headers: user.headers,
    payload: body,
  });
}

async function usdtAddress(user: TestUser) {
  const response = await requestAddress(user, { provider: 'cryptomus', currency: 'USDT', network: 'TRON' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().address as { address: string; url: string; currency: string; network: string };
}

/** Sends coins to an address through the sandbox's control API; the deposit's payment object. */
const deposit = (address: string, amount: string, status = 'paid') =>
  sandboxControl(t!, 'wallet/deposit', { address, amount, status });

const balance = (user: TestUser) => balanceOf(db(), user.id);
const creditsOf = (user: TestUser) =>
  db()
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, user.id))
    .then((rows) => rows.filter((row) => row.kind === 'topup'));

describe('deposit addresses', () => {
  it('creates one address under 10 concurrent requests, and lists it with the coins on offer', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        requestAddress(user, { provider: 'cryptomus', currency: 'USDT', network: 'TRON' }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    const shown = new Set(answers.map((answer) => answer.json().address.address));
    expect(shown.size).toBe(1);
    const rows = await db().select().from(depositAddresses).where(eq(depositAddresses.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.address).toBe([...shown][0]);

    const list = await t.app.inject({ url: '/api/topup/deposit-addresses', headers: user.headers });
    expect(list.json().addresses).toEqual([expect.objectContaining({ currency: 'USDT', network: 'TRON' })]);
    // NOWPayments has no static wallets: only the Cryptomus-kind providers are offered.
    const providers = new Set(list.json().options.map((option: { provider: string }) => option.provider));
    expect(providers.has('nowpayments')).toBe(false);
    expect(providers.has('cryptomus')).toBe(true);

    // Another user gets another address; a coin the provider does not offer gets none.
    const other = await createUser(t);
    expect((await usdtAddress(other)).address).not.toBe([...shown][0]);
    // (The first user has spent the per-minute allowance of address and invoice requests.)
    const refused = await requestAddress(other, { provider: 'cryptomus', currency: 'DOGE', network: 'TRON' });
    expect(refused.statusCode).toBe(400);
    const noWallets = await requestAddress(other, {
      provider: 'nowpayments',
      currency: 'USDT',
      network: 'TRON',
    });
    expect(noWallets.statusCode).toBe(400);
  });

  it('credits a confirmed deposit once at its USD value, under five concurrent replays of its webhook', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const { address } = await usdtAddress(user);
    const paid = await deposit(address, '25.50');
    await expect.poll(() => balance(user)).toBe(2550);

    const webhookBody = (paid.webhook as { body: string }).body;
    const replays = await Promise.all(Array.from({ length: 5 }, () => postWebhook(t!, webhookBody)));
    expect(replays.map((replay) => replay.statusCode)).toEqual(Array(5).fill(200));
    expect(await balance(user)).toBe(2550);
    const credits = await creditsOf(user);
    expect(credits).toHaveLength(1);
    expect(credits[0]!.idempotencyKey).toBe(`topup:cryptomus:${paid.uuid}`);

    // The receipt: a credited top-up in the user's list, like an invoice's.
    const list = await t.app.inject({ url: '/api/topup/payments', headers: user.headers });
    expect(list.json().payments).toEqual([
      expect.objectContaining({ status: 'COMPLETED', amount: 25.5, credited_amount: 25.5 }),
    ]);
  });

  it('refuses a forged deposit webhook with 401 and credits nothing', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const { address } = await usdtAddress(user);
    const unconfirmed = await deposit(address, '40.00', 'confirm_check');
    await expect.poll(() => db().select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
    const original = JSON.parse((unconfirmed.webhook as { body: string }).body) as Record<string, unknown>;
    delete original.sign;
    const forged = encodeSignedWebhook(
      { ...original, status: 'paid', is_final: true, payment_amount_usd: '4000.00' },
      'not-the-payment-key',
    );
    const answer = await postWebhook(t, forged);
    expect(answer.statusCode).toBe(401);
    expect(await balance(user)).toBe(0);
    expect(await creditsOf(user)).toHaveLength(0);
  });

  it('credits nothing while a deposit confirms, then credits it once confirmed', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const { address } = await usdtAddress(user);
    const seen = await deposit(address, '12.00', 'confirm_check');
    await expect
      .poll(() =>
        db()
          .select()
          .from(payments)
          .where(eq(payments.providerPaymentId, seen.uuid as string)),
      )
      .toEqual([expect.objectContaining({ status: 'pending', providerStatus: 'confirm_check' })]);
    expect(await balance(user)).toBe(0);

    await sandboxControl(t, 'status', { uuid: seen.uuid, status: 'paid' });
    await expect.poll(() => balance(user)).toBe(1200);
    expect(await creditsOf(user)).toHaveLength(1);
  });

  it('credits two deposits to one address, each once', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const { address } = await usdtAddress(user);
    await Promise.all([deposit(address, '10.00'), deposit(address, '7.25')]);
    await expect.poll(() => balance(user)).toBe(1725);
    const credits = await creditsOf(user);
    expect(credits.map((credit) => credit.amountCents).sort()).toEqual([1000, 725]);
    const rows = await db().select().from(payments).where(eq(payments.userId, user.id));
    expect(rows.every((row) => row.status === 'completed' && row.depositAddressId !== null)).toBe(true);
  });

  it('credits a confirmed deposit whose webhook was lost, through the reconciliation job, once', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const { address } = await usdtAddress(user);
    const seen = await deposit(address, '9.99', 'confirm_check');
    await expect
      .poll(() =>
        db()
          .select()
          .from(payments)
          .where(eq(payments.providerPaymentId, seen.uuid as string)),
      )
      .toHaveLength(1);
    await sandboxControl(t, 'status', { uuid: seen.uuid, status: 'paid', send_webhook: false });
    const job = createPaymentReconciliation({
      topups: t.ctx.topups,
      clock: t.clock,
      log: t.ctx.log,
    });
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await balance(user)).toBe(999);
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await balance(user)).toBe(999);
    expect(await creditsOf(user)).toHaveLength(1);
  });
});

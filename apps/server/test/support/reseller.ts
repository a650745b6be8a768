import type { ResponseStyle } from '@simcode/sms-activate-protocol';
import { expect } from 'vitest';
import { balanceOf } from '../../src/modules/accounts/ledger';
import { PROTOCOL_PATHS } from '../../src/modules/reseller/routes';
import type { TestApp } from './app';
import { assertLedgerInvariant, fundUser } from './money';
import type { TestUser } from './users';

/** Creates an API key for a user through the management API; returns its id and the key itself. */
export async function createApiKey(
  t: TestApp,
  user: TestUser,
  settings: Record<string, unknown> = {},
): Promise<{ id: number; secret: string; webhookSecret: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/api-keys',
    headers: user.headers,
    // Creating a key asks for the owner's password.
    payload: { name: 'bot', current_password: user.password, ...settings },
  });
  if (response.statusCode !== 200) throw new Error(`creating a key failed: ${response.body}`);
  const body = response.json();
  return { id: body.key.id, secret: body.secret, webhookSecret: body.key.webhook_secret };
}

/** One protocol call over real HTTP, as a customer's tool makes it, in the style of the path it calls. */
export async function protocolCall(
  t: TestApp,
  key: string,
  action: string,
  params: Record<string, string | number> = {},
  method: 'GET' | 'POST' = 'GET',
  style: ResponseStyle = 'classic',
): Promise<{ status: number; body: string; headers: Headers }> {
  const query = new URLSearchParams({
    api_key: key,
    action,
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
  });
  const url = protocolUrl(t, style);
  const response =
    method === 'GET'
      ? await fetch(`${url}?${query}`)
      : await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: query.toString(),
        });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** Where a client of the style points its base URL. */
export function protocolUrl(t: TestApp, style: ResponseStyle = 'classic'): string {
  return `${t.ctx.loopback.origin}${PROTOCOL_PATHS[style]}`;
}

/**
 * A runaway bot's burst, the same on every door: `attempts` purchases of `priceCents` at once through one new
 * key whose total cap fits `fits` of them, on an account that could pay for all. Exactly `fits` are sold,
 * the key's spend ends at the cap and never past it, the balance falls by exactly what was sold, and the
 * ledger holds. `buy` makes one purchase through the door under test with the key's secret (`attempt`
 * counts from 0) and answers whether it sold; it checks a refusal is the door's cap refusal itself.
 */
export async function assertParallelBuysKeepToCap(
  t: TestApp,
  user: TestUser,
  options: {
    priceCents: number;
    fits: number;
    attempts: number;
    buy: (secret: string, attempt: number) => Promise<boolean>;
  },
): Promise<void> {
  const { priceCents, fits, attempts, buy } = options;
  const capCents = priceCents * fits;
  await fundUser(t.ctx.database, user.id, priceCents * attempts);
  const before = await balanceOf(t.ctx.database.db, user.id);
  const key = await createApiKey(t, user, { total_cap: capCents / 100 });

  const sold = await Promise.all(Array.from({ length: attempts }, (_, attempt) => buy(key.secret, attempt)));

  expect(sold.filter(Boolean)).toHaveLength(fits);
  expect(await balanceOf(t.ctx.database.db, user.id)).toBe(before - capCents);
  const keys = (await t.app.inject({ url: '/api/dashboard/api-keys', headers: user.headers })).json().keys;
  const spentCents = Math.round(keys.find((entry: { id: number }) => entry.id === key.id).spent_total * 100);
  expect(spentCents).toBe(capCents);
  await assertLedgerInvariant(t.ctx.database);
}

import type { ResponseStyle } from '@simcode/sms-activate-protocol';
import { PROTOCOL_PATHS } from '../../src/modules/reseller/routes';
import type { TestApp } from './app';
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

import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

/** What production needs to start, with the built-in stand-ins allowed (a demo). */
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://simcode.example',
  JWT_SECRET: 'j'.repeat(40),
  ALTCHA_HMAC_KEY: 'a'.repeat(40),
  SMS_WEBHOOK_SECRET: 's'.repeat(40),
  DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
  SIMULATOR_ALLOW_IN_PRODUCTION: 'true',
  SANDBOX_ALLOW_IN_PRODUCTION: 'true',
  MAIL_OUTBOX_ALLOW_IN_PRODUCTION: 'true',
};

const adminPaths = async (app: TestApp) =>
  Object.keys((await app.app.inject({ url: '/api/docs/json' })).json().paths).filter((path) =>
    path.startsWith('/api/admin'),
  );

describe('the public API document', () => {
  it("keeps the administrators' API out in production, and shows it elsewhere", async () => {
    t = await createTestApp(production);
    expect(await adminPaths(t)).toEqual([]);
    await t.app.close();
    t = await createTestApp();
    expect((await adminPaths(t)).length).toBeGreaterThan(10);
  });
});

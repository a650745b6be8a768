import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { testDatabase } from '../../../test/support/database';

// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
});

async function docsPolicy(env: Record<string, string>) {
  t = await createTestApp(env);
  const response = await t.app.inject({ url: '/api/docs/' });
  expect(response.statusCode).toBe(200);
  return String(response.headers['content-security-policy']);
}

describe('/api/docs content security policy', () => {
  it('does not demand HTTPS over plain HTTP and allows its own inline styles', async () => {
    const policy = await docsPolicy({ PUBLIC_URL: 'http://localhost:3000' });
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(policy).toMatch(/style-src 'self' 'unsafe-inline'/);
    expect(policy).toMatch(/script-src 'self'(;| )/);
  });

  it('keeps browsers on HTTPS when the site is served over HTTPS', async () => {
    expect(await docsPolicy({ PUBLIC_URL: 'https://example.com' })).toContain('upgrade-insecure-requests');
  });
});

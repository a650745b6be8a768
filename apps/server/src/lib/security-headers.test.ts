import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import { testDatabase } from '../../test/support/database';
import { API_SECURITY_HEADERS } from './security-headers';

// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
});

describe('security headers', () => {
  it("give the machine clients' answers the API's short set and the pages their whole policy", async () => {
    t = await createTestApp();
    const apiPolicy = API_SECURITY_HEADERS['content-security-policy'];
    for (const url of [
      '/api/public-config',
      '/stubs/handler_api.php?action=getBalance',
      '/hero/stubs/handler_api.php?action=getBalance',
      '/mcp',
    ]) {
      const response = await t.app.inject({ url });
      expect(response.headers['content-security-policy'], url).toBe(apiPolicy);
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
    }
    const page = await t.app.inject({ url: '/robots.txt' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });
});

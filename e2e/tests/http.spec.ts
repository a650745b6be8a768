import { expect } from '@playwright/test';
import { test } from '../support/test';

test('the server answers health, readiness, API 404s and the API docs', async ({ request }) => {
  expect((await request.get('/healthz')).status()).toBe(200);
  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({ status: 'ready', database: 'pglite' });
  const missing = await request.get('/api/definitely-not-here');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ success: false, error: 'Not found.', code: 'not_found' });
  expect((await request.get('/api/docs/json')).status()).toBe(200);
});

test('HTML is never cached, hashed assets are cached for a year, and the CSP allows only this origin', async ({
  page,
  request,
}) => {
  const html = await request.get('/login');
  expect(html.headers()['cache-control']).toBe('no-cache');
  const csp = html.headers()['content-security-policy'];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");

  const assetUrls: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/')) assetUrls.push(response.url());
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      violations.push(message.text());
  });
  await page.goto('/login');
  // The form's app, and the captcha with it, starts on the visitor's first interaction: a pointer move.
  await page.mouse.move(5, 5);
  await page.mouse.move(10, 10);
  await page.locator('altcha-widget').waitFor();
  expect(assetUrls.length).toBeGreaterThan(0);
  const asset = await request.get(assetUrls[0]!);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(violations).toEqual([]);
});

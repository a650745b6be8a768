import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import { testDatabase } from '../../test/support/database';
import { redactUrl } from './log-redaction';

// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
describe('redactUrl', () => {
  it.each([
    ['/api/upstream/sms/s3cret-value', '/api/upstream/sms/[redacted]'],
    ['/api/upstream/sms/s3cret-value?x=1', '/api/upstream/sms/[redacted]?x=1'],
    [
      '/simulator/stubs/handler_api.php?api_key=k3y&action=getBalance',
      '/simulator/stubs/handler_api.php?api_key=[redacted]&action=getBalance',
    ],
    ['/x?KEY=a&token=b&Api%5Fkey=c&keep=d', '/x?KEY=[redacted]&token=[redacted]&Api%5Fkey=[redacted]&keep=d'],
    ['/api/dashboard/numbers?limit=5', '/api/dashboard/numbers?limit=5'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it("removes a secret's value wherever it appears, URL-encoded inside another parameter too", () => {
    const secret = 'whs/ecr+et=value-1234';
    const inner = `http://127.0.0.1:3000/api/upstream/sms/${secret}/sim-a`;
    const url = `/simulator/stubs/handler_api.php?action=getRentNumber&url=${encodeURIComponent(inner)}&x=${encodeURIComponent(encodeURIComponent(inner))}`;
    const redacted = redactUrl(url, [secret]);
    expect(redacted).not.toContain(encodeURIComponent(secret));
    expect(redacted).not.toContain(encodeURIComponent(encodeURIComponent(secret)));
    expect(redacted).toContain('action=getRentNumber');
    expect(redacted).toContain('[redacted]');
  });
});

describe('request logs', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.app.close();
  });

  it('never write the SMS webhook secret or an api key, whatever the route', async () => {
    const lines: string[] = [];
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logTo: { write: (line: string) => lines.push(line) } });
    const secret = t.config.SMS_WEBHOOK_SECRET;
    const apiKey = t.config.SMS_PROVIDER_KEY;
    await t.app.inject({ method: 'POST', url: `/api/upstream/sms/${secret}`, payload: {} });
    await t.app.inject({ url: `/simulator/stubs/handler_api.php?api_key=${apiKey}&action=getBalance` });
    await t.app.inject({ url: '/api/dashboard/summary?token=a-token-in-a-url' });
    await t.app.inject({
      url: `/simulator/stubs/handler_api.php?action=getBalance&url=${encodeURIComponent(`http://h/api/upstream/sms/${secret}`)}`,
    });
    const written = lines.join('');
    // One access line per request, written when it is answered.
    expect(written.match(/request completed/g)).toHaveLength(4);
    expect(written).not.toContain(encodeURIComponent(secret));
    expect(written).not.toContain('incoming request');
    expect(written).toContain('/api/upstream/sms/[redacted]');
    for (const leaked of [secret, apiKey, 'a-token-in-a-url']) expect(written).not.toContain(leaked);
  });
});

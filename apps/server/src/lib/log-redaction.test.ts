import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../test/support/app';
import { testDatabase } from '../../test/support/database';
import { fundUser } from '../../test/support/money';
import { anOffer, createListeningTestApp } from '../../test/support/upstream';
import { createUser } from '../../test/support/users';
import { POLL_SAMPLE_EVERY } from './access-log';
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
    if (t) await closeTestApp(t);
    t = undefined;
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

  it('write successful polls below info, one in a sample at info, and failed polls at info', async () => {
    const lines: string[] = [];
    t = await createListeningTestApp(
      { LOG_LEVEL: 'debug' },
      { logTo: { write: (line: string) => lines.push(line) } },
    );
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = anOffer(t);
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: offer.countryId, service: offer.service },
    });
    expect(bought.statusCode).toBe(200);
    const status = `/api/dashboard/number-status/${bought.json().number.number_id}`;
    lines.length = 0;
    for (let poll = 0; poll < POLL_SAMPLE_EVERY; poll += 1)
      expect((await t.app.inject({ url: status, headers: user.headers })).statusCode).toBe(200);
    const unknown = await t.app.inject({
      url: '/api/dashboard/number-status/999999999',
      headers: user.headers,
    });
    expect(unknown.statusCode).toBe(404);
    const access = lines
      .map(
        (line) => JSON.parse(line) as { level: number; msg: string; req?: { url: string }; sampled?: number },
      )
      .filter((record) => record.msg === 'request completed');
    const atInfo = access.filter((record) => record.level === 30);
    // Every poll has its line; at the default level, one of the successful ones and the failed one.
    expect(access).toHaveLength(POLL_SAMPLE_EVERY + 1);
    expect(atInfo.map((record) => [record.req?.url, record.sampled])).toEqual([
      [status, POLL_SAMPLE_EVERY],
      ['/api/dashboard/number-status/999999999', undefined],
    ]);
  });
});

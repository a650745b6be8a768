import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CAPTCHA_FIELD } from '@simcode/contract';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../test/support/app';
import { solveCaptcha } from '../../test/support/captcha';
import { fundUser } from '../../test/support/money';
import { startTcpProxy } from '../../test/support/tcp-proxy';
import { anOffer, createListeningTestApp } from '../../test/support/upstream';
import { createUser, type TestUser } from '../../test/support/users';

const REDIS = { host: '127.0.0.1', port: 6379 };

function redisListens(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (listens: boolean) => {
      socket.destroy();
      resolve(listens);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
    socket.connect(REDIS.port, REDIS.host);
  });
}

let t: TestApp | undefined;
let proxy: Awaited<ReturnType<typeof startTcpProxy>> | undefined;
afterEach(async () => {
  if (t) await closeTestApp(t);
  await proxy?.close();
  t = undefined;
  proxy = undefined;
});

async function readiness(app: TestApp) {
  const response = await app.app.inject({ url: '/readyz' });
  return { statusCode: response.statusCode, ...response.json() };
}

/** Polls readiness until Redis reports `state`; bounded, so a recovery that never comes fails the test. */
async function waitForRedis(app: TestApp, state: 'up' | 'down') {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if ((await readiness(app)).redis === state) return;
    await sleep(50);
  }
  throw new Error(`Redis never reported ${state}`);
}

describe.skipIf(!(await redisListens()))('rate limits when Redis fails', () => {
  it('keep sign-in and buying working through an outage, say so once, and share limits again after', async () => {
    proxy = await startTcpProxy(REDIS);
    const prefix = `simcode-test:${randomUUID()}:`;
    const lines: string[] = [];
    t = await createListeningTestApp(
      {
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_PREFIX: prefix,
        RATE_LIMIT_AUTH_PER_MINUTE: '4',
        LOG_LEVEL: 'info',
      },
      { logTo: { write: (line: string) => lines.push(line) } },
    );
    const app = t;
    const user = await createUser(app);
    await fundUser(app.ctx.database, user.id, 100_000);
    const offer = anOffer(app);
    const direct = new Redis(REDIS.port, REDIS.host);
    const keysInRedis = async () => (await direct.keys(`${prefix}*`)).length;
    const buy = (buyer: TestUser) =>
      app.app.inject({
        method: 'POST',
        url: '/api/dashboard/buy-number',
        headers: buyer.headers,
        payload: { countryID: offer.countryId, service: offer.service },
      });
    const signIn = async (username: string, password: string, remoteAddress: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        payload: { username, password, [CAPTCHA_FIELD]: await solveCaptcha(app.app) },
      });
    try {
      await waitForRedis(app, 'up');
      expect((await buy(user)).statusCode).toBe(200);
      expect((await signIn(user.username, user.password, '198.51.100.1')).statusCode).toBe(200);
      // Counted in Redis, under this deployment's prefix.
      const keysBefore = await keysInRedis();
      expect(keysBefore).toBeGreaterThan(0);

      // What the outage logs is read from here: a busy machine may see a blip of its own before it.
      const linesBeforeOutage = lines.length;
      await proxy.cut();
      await waitForRedis(app, 'down');
      expect((await buy(user)).statusCode).toBe(200);
      expect((await signIn(user.username, user.password, '198.51.100.2')).statusCode).toBe(200);
      expect(await readiness(app)).toMatchObject({ statusCode: 200, status: 'degraded', redis: 'down' });
      // Limits still hold, counted in this process: the fifth attempt from one address within the minute waits.
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1)
        statuses.push((await signIn(`nobody_${attempt}`, 'wrong-password-1', '198.51.100.3')).statusCode);
      expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
      expect(statuses.slice(4)).toEqual([429, 429]);
      expect(await keysInRedis()).toBe(keysBefore);

      await proxy.restore();
      await waitForRedis(app, 'up');
      expect(await readiness(app)).toMatchObject({ statusCode: 200, status: 'ready', redis: 'up' });
      expect((await buy(user)).statusCode).toBe(200);
      expect((await signIn(user.username, user.password, '198.51.100.4')).statusCode).toBe(200);
      expect(await keysInRedis()).toBeGreaterThan(keysBefore);

      // One JSON warning for the outage, however many requests it saw, and one line when it ended.
      const records = lines.map(
        (line) => JSON.parse(line) as { level: number; dependency?: string; msg: string },
      );
      const aboutRedis = records.slice(linesBeforeOutage).filter((record) => record.dependency === 'redis');
      expect(aboutRedis.map((record) => record.level)).toEqual([40, 30]);
      // Probes are not traffic: none reached the access log.
      expect(
        records.some(
          (record) => record.msg === 'request completed' && JSON.stringify(record).includes('/readyz'),
        ),
      ).toBe(false);
    } finally {
      await direct.del(...(await direct.keys(`${prefix}*`)), `${prefix}none`);
      direct.disconnect();
    }
  });
});

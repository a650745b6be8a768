import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../apps/server/src/app/build-app';
import { type Container, createContainer } from '../../apps/server/src/app/container';
import { type Config, loadConfig } from '../../apps/server/src/config';
import type { DatabaseHandle } from '../../apps/server/src/db/client';
import { ManualClock } from '../../apps/server/src/lib/clock';
import { BENCH_JWT_SECRET } from './seed';

export interface InProcessApp {
  app: FastifyInstance;
  ctx: Container;
  clock: ManualClock;
  config: Config;
  /** Stops the built-in upstreams, closes the server and the event bus; the database stays open. */
  close(): Promise<void>;
}

/**
 * The whole product in this process, as apps/server/test/support builds it for the tests, but on a
 * database the caller opened: a clock that moves only when told, the server listening on a free port so
 * the SMS-Activate adapter reaches the built-in simulator over real HTTP, and the catalog loaded. No
 * background job runs by itself: the caller runs `createJobs(ctx)` on the manual clock.
 */
export async function startInProcessApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
): Promise<InProcessApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-bench-inprocess-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: BENCH_JWT_SECRET,
    SIMULATOR_SEED: '42',
    SMS_PROVIDER_TIMEOUT_MS: '10000',
    // One supplier, as the benches measured before the pool; a bench of the pool asks for it.
    SMS_PROVIDERS: 'sim-a',
    // On this loop: the simulators follow the manual clock and are ticked by hand.
    SIMULATORS_THREAD: 'main',
    ...env,
  });
  const clock = new ManualClock(Date.now());
  const ctx = await createContainer(config, database, clock, pino({ level: 'silent' }));
  const app = await buildApp(ctx);
  const close = async () => {
    await ctx.paymentSandbox?.stop();
    await ctx.simulators.stop();
    const closing = app.close();
    app.server.closeAllConnections();
    await closing;
    await ctx.events.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await app.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    ctx.loopback.setFromAddress(app.server.address());
    if (!(await ctx.catalog.refreshFromUpstream())) throw new Error('the simulator catalog did not load');
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { app, ctx, clock, config, close };
}

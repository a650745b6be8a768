import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Simulator } from '@simcode/stand-ins';
import type { FastifyInstance } from 'fastify';
import { type DestinationStream, pino } from 'pino';
import { buildApp } from '../../src/app/build-app';
import { type Container, createContainer } from '../../src/app/container';
import { type Config, loadConfig } from '../../src/config';
import type { CallBudget } from '../../src/lib/call-budget';
import { ManualClock } from '../../src/lib/clock';
import type { ActivationProvider, RentProvider } from '../../src/providers/sms/types';
import { createLogger } from '../../src/server';
import { testDatabase } from './database';

export interface TestApp {
  app: FastifyInstance;
  ctx: Container;
  clock: ManualClock;
  config: Config;
  /** The first provider of the pool, where what a test buys goes unless it asks for the pool. */
  sms: ActivationProvider;
  /** The first provider of the pool that rents numbers. */
  rents: RentProvider;
  /** The first built-in simulator (mounted at /simulator), when there is one. */
  simulator?: Simulator;
  /** The first provider's budget of background upstream calls. */
  upstreamBudget: CallBudget;
}

/**
 * The whole app, in process, on this worker's database and a clock that moves only when told.
 * Environment overrides go through the same validation as production configuration.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { logTo?: DestinationStream } = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'simcode-test-')),
    // Cheap proof of work: tests solve it in milliseconds; the verification code is the same.
    ALTCHA_COST: '1',
    ALTCHA_MAX_COUNTER: '8',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    RATE_LIMIT_API_KEY_LOOKUPS_PER_MINUTE: '10000',
    // One simulated supplier unless a test asks for the pool: what a test buys is then where it looks.
    SMS_PROVIDERS: 'sim-a',
    // On this loop: the simulators follow the manual clock and are ticked by hand.
    SIMULATORS_THREAD: 'main',
    ...env,
  });
  const clock = new ManualClock(Date.now());
  // The process logger as production builds it, when a test reads what it writes.
  const log = options.logTo ? createLogger(config, options.logTo) : pino({ level: 'silent' });
  const ctx = await createContainer(config, await testDatabase(), clock, log);
  const app = await buildApp(ctx);
  // The worker's database outlives the app (the worker's files share it); the event bus's own listener
  // connection must not, or a worker's apps use up PostgreSQL's connections.
  app.addHook('onClose', () => ctx.events.close());
  await app.ready();
  const first = ctx.providers.members[0]!;
  return {
    app,
    ctx,
    clock,
    config,
    sms: first.provider,
    rents: ctx.providers.rentMembers()[0]!.rents,
    simulator: ctx.simulators.inProcess[0]?.simulator,
    upstreamBudget: ctx.upstreamBudgets.get(first.name)!,
  };
}

/**
 * Closes a test app without waiting out keep-alive timeouts: the built-in upstreams stop sending first,
 * and connections an aborted client call left open (a simulated hanging upstream) are cut.
 */
export async function closeTestApp(t: TestApp): Promise<void> {
  await t.ctx.paymentSandbox?.stop();
  await t.ctx.nowPaymentsSandbox?.stop();
  await t.ctx.simulators.stop();
  const closing = t.app.close();
  t.app.server.closeAllConnections();
  await closing;
}

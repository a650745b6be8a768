import { setTimeout as sleep } from 'node:timers/promises';
import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import { buildApp } from './app/build-app';
import { type Container, createContainer } from './app/container';
import { createJobs } from './app/jobs';
import type { Config } from './config';
import { openDatabase, pgliteDirFor } from './db/client';
import { restrictContents, secureDataDir } from './db/data-dir';
import { claimPgliteFolder } from './db/pglite-lock';
import { sealStoredSecrets } from './db/sealed-secrets';
import { systemClock } from './lib/clock';
import { requestSerializer } from './lib/log-redaction';
import { serveMetrics } from './lib/metrics';
import { type RunningJobs, startJobs } from './lib/scheduler';
import { startTracing } from './lib/tracing';
import { applyRoutingSwitches } from './modules/admin/providers/service';
import { serveControlSocket } from './modules/backups/control-socket';
import { takeSnapshot } from './modules/backups/snapshot';

/** How long a log line may wait in the buffer before it is written. */
const LOG_FLUSH_INTERVAL_MS = 1000;

/** The process logger; `destination` is for tests that read what it writes. */
export function createLogger(config: Config, destination?: DestinationStream) {
  const pretty = !destination && !config.isProduction && process.stdout.isTTY;
  const options: LoggerOptions = {
    level: config.LOG_LEVEL,
    // Bearer tokens never reach the logs, nor do secrets in request URLs (webhook path, api keys).
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: { req: requestSerializer([config.SMS_WEBHOOK_SECRET]) },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  if (destination) return pino(options, destination);
  if (pretty) return pino(options);
  // Lines are gathered and written 4 KB at a time instead of one write to stdout per line: with an access
  // line per request, the write per line was the largest single cost of a polled request. What is gathered
  // is written at least every second (a quiet server's lines would otherwise wait for 4 KB of company), on
  // exit (sonic-boom flushes synchronously then) and when the server closes.
  return pino(
    options,
    pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_INTERVAL_MS }),
  );
}

export interface RunningServer {
  ctx: Container;
  url: string;
  close(): Promise<void>;
}

/** Opens the database, migrates it, builds the app, listens and starts the background jobs. */
export async function startServer(config: Config): Promise<RunningServer> {
  const log = createLogger(config);
  for (const warning of [...config.warnings, ...secureDataDir(config.DATA_DIR)])
    log.warn(`WARNING: ${warning}`);
  const folderLock = config.DATABASE_URL ? undefined : await claimPgliteFolder(config.DATA_DIR);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirFor(config.DATA_DIR),
  });
  await database.migrate();
  // The embedded database's own files, just created or opened (PGlite writes them 0666).
  restrictContents(config.DATA_DIR);
  // Before the app: its request hook traces when a collector is configured.
  const tracing = await startTracing(config);
  const ctx = await createContainer(config, database, systemClock, log);
  await sealStoredSecrets(database.db, ctx.secretBox);
  const app = await buildApp(ctx);
  await ctx.simulators.load();
  await ctx.paymentSandbox?.load();
  await ctx.nowPaymentsSandbox?.load();
  await app.listen({ port: config.PORT, host: config.HOST });
  ctx.loopback.setFromAddress(app.server.address());
  // Only now can the built-in upstreams reach our webhooks: earlier, their pushes would be refused.
  ctx.simulators.start();
  ctx.paymentSandbox?.start();
  // The admin command's way to a consistent backup while this process holds the embedded database.
  const { pglite } = database;
  if (pglite && folderLock)
    serveControlSocket(folderLock, () => takeSnapshot(pglite, config.DATA_DIR, new Date()), log);
  // The stored catalog serves at once; the refresh job updates it from the upstream in the background.
  await ctx.pricing.reload(ctx.database.db);
  await applyRoutingSwitches(ctx.database.db, ctx.providers);
  await ctx.catalog.loadFromStore();
  const jobs: RunningJobs = startJobs(createJobs(ctx), log, (job, outcome) => {
    ctx.metrics.jobRuns.inc({ job, outcome });
    if (outcome === 'ok') ctx.metrics.jobLastSuccess.setToCurrentTime({ job });
  });
  ctx.lifecycle.jobs = jobs;
  const metricsServer = config.METRICS_PORT
    ? await serveMetrics(ctx.metrics.registry, config.HOST, config.METRICS_PORT)
    : undefined;
  log.info(
    { database: database.kind, url: config.PUBLIC_URL },
    `${config.APP_NAME} is serving at ${config.PUBLIC_URL}`,
  );
  return {
    ctx,
    url: config.PUBLIC_URL,
    async close() {
      // Readiness answers 503 and every answer closes its connection from here on; the load balancer is
      // given SHUTDOWN_DELAY_MS to notice before the server stops taking requests.
      ctx.lifecycle.draining = true;
      if (config.SHUTDOWN_DELAY_MS > 0) await sleep(config.SHUTDOWN_DELAY_MS);
      await jobs.stop();
      // The built-in upstreams stop sending first: a push or webhook to this server while it stops
      // listening would be refused and spend an attempt. They still answer the requests being drained.
      await ctx.simulators.stop();
      await ctx.paymentSandbox?.stop();
      await ctx.nowPaymentsSandbox?.stop();
      // Ends the live-update streams first (their pages reconnect elsewhere), then waits for the requests
      // in flight; each wrote what it acknowledged before answering.
      await app.close();
      // Reset links asked for just before are made after their answer: let them land before the database closes.
      await ctx.account.resetsSent();
      await ctx.events.close();
      await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
      await database.close();
      await folderLock?.release();
      // The last spans, the shutdown's among them.
      await tracing.shutdown();
      log.flush();
    },
  };
}

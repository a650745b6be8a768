import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { type AppContext, createContext } from './context';
import { openDatabase, pgliteDirFor } from './db/client';
import { claimPgliteFolder, releasePgliteFolder } from './db/pglite-lock';
import { createJobs } from './jobs';
import { type RunningJobs, startJobs } from './jobs/scheduler';
import { systemClock } from './lib/clock';
import { serializeRequest } from './lib/log-redaction';

/** The process logger; `destination` is for tests that read what it writes. */
export function createLogger(config: Config, destination?: DestinationStream) {
  const pretty = !destination && !config.isProduction && process.stdout.isTTY;
  const options: LoggerOptions = {
    level: config.LOG_LEVEL,
    // Bearer tokens never reach the logs, nor do secrets in request URLs (webhook path, api keys).
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: { req: serializeRequest },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

export interface RunningServer {
  ctx: AppContext;
  url: string;
  close(): Promise<void>;
}

/** Opens the database, migrates it, builds the app, listens and starts the background jobs. */
export async function startServer(config: Config): Promise<RunningServer> {
  const log = createLogger(config);
  if (!config.DATABASE_URL) claimPgliteFolder(config.DATA_DIR);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirFor(config.DATA_DIR),
  });
  await database.migrate();
  const ctx = await createContext(config, database, systemClock, log);
  const app = await buildApp(ctx);
  ctx.simulator?.start();
  await ctx.paymentSandbox?.start();
  await app.listen({ port: config.PORT, host: config.HOST });
  ctx.loopback.setFromAddress(app.server.address());
  // The stored catalog serves at once; the refresh job updates it from the upstream in the background.
  await ctx.catalog.loadFromStore();
  const jobs: RunningJobs = startJobs(createJobs(ctx), log);
  log.info(
    { database: database.kind, url: config.PUBLIC_URL },
    `${config.APP_NAME} is serving at ${config.PUBLIC_URL}`,
  );
  return {
    ctx,
    url: config.PUBLIC_URL,
    async close() {
      await jobs.stop();
      await app.close();
      await ctx.simulator?.stop();
      await ctx.paymentSandbox?.stop();
      await ctx.events.close();
      await database.close();
      if (!config.DATABASE_URL) releasePgliteFolder(config.DATA_DIR);
    },
  };
}

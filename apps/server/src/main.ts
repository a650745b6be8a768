import 'dotenv/config';
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config';
import { startServer } from './server';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

let server: Awaited<ReturnType<typeof startServer>>;
try {
  server = await startServer(config);
} catch (error) {
  console.error(`Could not start: ${(error as Error).message}`);
  process.exit(1);
}

// The drain delay, then ten seconds for the requests in flight; past that the process ends regardless.
closeWithGrace({ delay: config.SHUTDOWN_DELAY_MS + 10_000 }, async ({ signal, err }) => {
  if (err) server.ctx.log.error({ err }, 'shutting down after an error');
  else server.ctx.log.info({ signal }, 'shutting down');
  await server.close();
});

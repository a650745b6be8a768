import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'packages/cryptomus-protocol',
      'packages/nowpayments-protocol',
      'packages/stand-ins',
      'apps/server',
      'apps/server/crash',
      'apps/web',
    ],
    // Vitest's default leaves one core free: on a 2-core machine that is one worker for everything. The
    // tests wait on I/O (HTTP, PGlite, PostgreSQL) as much as they compute, and each worker has its own
    // database, so two run side by side.
    maxWorkers: 2,
  },
});

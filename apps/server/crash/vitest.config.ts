import { defineProject } from 'vitest/config';

/**
 * The crash test: real server processes killed with SIGKILL mid-traffic and restarted on the same data.
 * Its own project, so the server project's per-test database and its 30 s limit do not apply; `npm run
 * test:unit` (and so CI) runs it, on PGlite and, when one listens on 127.0.0.1:5432, on PostgreSQL.
 */
export default defineProject({
  test: {
    name: 'crash',
    include: ['*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    // Generous: the runs wait on outcomes, and a busy machine slows every start (about 30 to 70 s idle).
    testTimeout: 400_000,
    hookTimeout: 30_000,
    env: { TZ: 'UTC' },
  },
});

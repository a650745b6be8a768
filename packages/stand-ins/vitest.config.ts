import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'stand-ins',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    env: { TZ: 'UTC' },
  },
});

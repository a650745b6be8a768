import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'nowpayments-protocol', include: ['src/**/*.test.ts'], environment: 'node' },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'cryptomus-protocol', include: ['src/**/*.test.ts'], environment: 'node' },
});

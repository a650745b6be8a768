import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { catalogAssets } from './scripts/catalog-assets-plugin.ts';

export default defineProject({
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
  },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Test support: the fake API and the render helper, never part of the app.
      '@test': fileURLToPath(new URL('./test', import.meta.url)),
    },
  },
  // Components with flags and brand icons import the modules this plugin generates.
  plugins: [react(), catalogAssets()],
});

import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { catalogAssets } from './scripts/catalog-assets-plugin.ts';

const API_TARGET = process.env.SIMCODE_API_URL ?? 'http://127.0.0.1:3000';

/**
 * In development the Vite server, not ours, serves index.html: fill its placeholders from the running
 * API server so the page sees the same configuration as in production.
 */
function devPublicConfig(): Plugin {
  return {
    name: 'simcode-dev-public-config',
    apply: 'serve',
    async transformIndexHtml(html) {
      let config = {
        appName: 'SimCode',
        captcha: { provider: 'altcha' },
        supportChatUrl: 'https://t.me/simcode_support',
        landingStats: [148763, 24585, 180, 1000],
      };
      try {
        const response = await fetch(`${API_TARGET}/api/public-config`);
        if (response.ok) config = await response.json();
      } catch {
        // The API server is not up yet: defaults keep the page usable.
      }
      const attribute = JSON.stringify(config).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
      return html.replaceAll('__APP_NAME__', config.appName).replaceAll('__SIMCODE_CONFIG__', attribute);
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), devPublicConfig(), catalogAssets()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: {
      '/api': API_TARGET,
      '/simulator': API_TARGET,
      '/sandbox': API_TARGET,
    },
  },
  build: {
    // Parallel checkouts and CI jobs may build elsewhere (the server reads WEB_DIST_DIR).
    outDir: process.env.SIMCODE_WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Workers of the captcha widget are emitted as files, never inlined as blob: URLs.
    assetsInlineLimit: 2048,
    // scripts/prerender.ts reads it to preload the app's chunks on the pages that start it at once.
    manifest: true,
    // Every browser the app supports has module preloading; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
  worker: { format: 'es' },
});

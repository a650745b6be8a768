import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from './processes';

/** Debian's Chromium (Playwright's and Puppeteer's own downloads cannot run on these machines). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless Chromium on a shared machine, as the end-to-end tests start it. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface WebBuild {
  distDir: string;
  /** Removes the folder when this build made it; leaves a given WEB_DIST_DIR alone. */
  cleanUp(): void;
}

/**
 * A production build of the web app in a temporary folder (or the one `WEB_DIST_DIR` names), so the
 * benchmarks never touch apps/web/dist, which `npm start` and the end-to-end tests use.
 */
export function buildWebApp(): WebBuild {
  if (process.env.WEB_DIST_DIR) return { distDir: path.resolve(process.env.WEB_DIST_DIR), cleanUp: () => {} };
  const distDir = mkdtempSync(path.join(tmpdir(), 'simcode-bench-web-'));
  const cleanUp = () => rmSync(distDir, { recursive: true, force: true });
  console.log(`Building the web app into ${distDir}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', '@simcode/web'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, SIMCODE_WEB_OUT_DIR: distDir },
  });
  if (result.status !== 0) {
    cleanUp();
    throw new Error('the web build failed');
  }
  return { distDir, cleanUp };
}

/** The gzip size of a built file, as the server sends it (the build's .gz copy, or gzip -9 of a small file). */
export function gzipBytes(distDir: string, url: string): number {
  const file = path.join(distDir, new URL(url).pathname);
  if (existsSync(`${file}.gz`)) return statSync(`${file}.gz`).size;
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

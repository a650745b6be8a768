// Builds the web app and the server when their output is missing or older than any of their sources, so
// `npm start` and `npm test` work on a fresh clone without a separate build step and do not rebuild
// needlessly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const targets = {
  web: {
    workspace: '@simcode/web',
    stamp: 'apps/web/dist/.build-stamp',
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/scripts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'packages/contract/src',
    ],
  },
  server: {
    workspace: '@simcode/server',
    stamp: 'apps/server/dist/.build-stamp',
    sources: [
      'apps/server/src',
      'apps/server/scripts',
      'packages/contract/src',
      'packages/cryptomus-protocol/src',
      'packages/nowpayments-protocol/src',
      'packages/fivesim-protocol/src',
      'packages/sms-activate-protocol/src',
      'packages/stand-ins/src',
    ],
  },
};

function newestMtimeMs(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtimeMs(path.join(target, entry)));
  return newest;
}

function buildTargetIfNeeded(name) {
  const { workspace, stamp, sources } = targets[name];
  const stampFile = path.join(root, stamp);
  const builtAt = existsSync(stampFile) ? statSync(stampFile).mtimeMs : 0;
  const changedAt = Math.max(...sources.map((source) => newestMtimeMs(path.join(root, source))));
  if (builtAt >= changedAt) return false;
  console.log(`Building the ${name}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, new Date().toISOString());
  return true;
}

/** The server always; the web app unless the caller serves a build of its own (CI, parallel checkouts). */
export function buildIfNeeded({ web = !process.env.WEB_DIST_DIR } = {}) {
  const serverBuilt = buildTargetIfNeeded('server');
  const webBuilt = web ? buildTargetIfNeeded('web') : false;
  return serverBuilt || webBuilt;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded();

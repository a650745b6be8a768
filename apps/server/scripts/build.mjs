// `npm run build -w @simcode/server`: compiles the server and its console commands to plain JavaScript in
// dist/, so production runs them with `node` and never loads a TypeScript loader. Packages from
// node_modules stay external (Node loads them as usual); the workspace's TypeScript (this server and the
// packages) is bundled, which also settles the extension-less imports Node's ESM loader would refuse.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverRoot, 'dist');
/** The workspace packages the server imports, each shipped as TypeScript sources. */
const workspacePackages = [
  'contract',
  'cryptomus-protocol',
  'nowpayments-protocol',
  'fivesim-protocol',
  'sms-activate-protocol',
  'stand-ins',
];

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: serverRoot,
  entryPoints: {
    main: 'src/main.ts',
    'cli/admin': 'src/cli/admin.ts',
    'cli/migrate': 'src/cli/migrate.ts',
    // The built-in simulators' thread (src/app/simulators/worker-host.ts starts it from here).
    'simulators-worker': 'src/app/simulators/worker.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Every package but our own workspace TypeScript is loaded from node_modules at run time.
  packages: 'external',
  alias: Object.fromEntries(
    workspacePackages.map((name) => [
      `@simcode/${name}`,
      path.resolve(serverRoot, `../../packages/${name}/src/index.ts`),
    ]),
  ),
  sourcemap: true,
  logLevel: 'warning',
});
writeFileSync(path.join(outdir, '.build-stamp'), new Date().toISOString());

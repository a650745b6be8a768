// `npm run admin -- …` and `npm run db:migrate`: the server's console commands, compiled like the server
// itself (built first when their sources changed), so they run where the product runs.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);
const commands = { admin: 'cli/admin.js', migrate: 'cli/migrate.js' };
if (!command || !(command in commands)) {
  console.error(`Usage: node scripts/server-command.mjs <${Object.keys(commands).join('|')}> [arguments]`);
  process.exit(1);
}
buildIfNeeded({ web: false });
// The command reads its own arguments from process.argv, as it would when run directly.
process.argv = [process.argv[0], path.join(root, 'apps/server/dist', commands[command]), ...args];
await import(pathToFileURL(process.argv[1]).href);

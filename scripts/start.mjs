// `npm start`: build what is out of date, then run the compiled server (which migrates the database on
// start) with plain Node: no TypeScript loader in the running product.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded();
await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);

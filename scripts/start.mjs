// `npm start`: build the web app if needed, then run the server (which migrates the database on start).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded();
register();
await import(pathToFileURL(path.join(root, 'apps/server/src/main.ts')).href);

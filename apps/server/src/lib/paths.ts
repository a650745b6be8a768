import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder, found by walking up from this module: the same answer whether the code runs
 * from its TypeScript sources (tests, `npm run dev`) or from the compiled bundle in dist/ (`npm start`),
 * whose modules sit at another depth.
 */
function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const serverRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

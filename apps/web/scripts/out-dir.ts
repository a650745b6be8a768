import path from 'node:path';

/** The build's output folder: vite.config.ts's `outDir`, which parallel checkouts move with SIMCODE_WEB_OUT_DIR. */
export function webOutDir(): string {
  return path.resolve(import.meta.dirname, '..', process.env.SIMCODE_WEB_OUT_DIR ?? 'dist');
}

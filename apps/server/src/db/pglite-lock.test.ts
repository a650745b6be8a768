import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claimPgliteFolder, FolderHeldError, pgliteFolderHeld } from './pglite-lock';

const lockModule = fileURLToPath(new URL('./pglite-lock.ts', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A real process that takes the folder and says so on stdout, then waits to be killed. */
function holderProcess(dataDir: string): Promise<ChildProcess> {
  const script = `
    const { claimPgliteFolder } = await import(${JSON.stringify(lockModule)});
    await claimPgliteFolder(${JSON.stringify(dataDir)});
    process.stdout.write('held\\n');
    setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
}

describe('the embedded database folder lock', () => {
  it('refuses a second holder while the first lives, and passes to the next once it is killed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-lock-'));
    const holder = await holderProcess(dataDir);
    expect(await pgliteFolderHeld(dataDir)).toBe(true);
    await expect(claimPgliteFolder(dataDir)).rejects.toBeInstanceOf(FolderHeldError);

    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    // The killed holder's pid now names another live process (this one), as an old pid file would say.
    writeFileSync(path.join(dataDir, 'pglite.pid'), String(process.pid));
    expect(await pgliteFolderHeld(dataDir)).toBe(false);
    const lock = await claimPgliteFolder(dataDir);
    expect(await pgliteFolderHeld(dataDir)).toBe(true);
    await lock.release();
    expect(await pgliteFolderHeld(dataDir)).toBe(false);
  });

  it('lets exactly one of two processes racing for a dead holder’s folder take it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-lock-'));
    const first = await holderProcess(dataDir);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const outcomes = await Promise.allSettled([claimPgliteFolder(dataDir), claimPgliteFolder(dataDir)]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') await outcome.value.release();
  });
});

// The container image without a container runtime (none runs on these machines): the Dockerfile's final
// stage is read, and its entry command and healthcheck are run as the image would run them (its ENV, from
// the repository root that the image copies to WORKDIR), against the compiled server.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../bench/lib/processes';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const HEALTHY_WITHIN_MS = 120_000;
const STOPPED_WITHIN_MS = 20_000;

/** The final stage's ENV, ENTRYPOINT, CMD and HEALTHCHECK command, continuation lines joined. */
function finalStage(dockerfile: string) {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim());
  const stage = lines.slice(lines.findLastIndex((line) => line.startsWith('FROM ')));
  const instruction = (name: string) =>
    stage.find((line) => line.startsWith(`${name} `))?.slice(name.length + 1);
  const env: Record<string, string> = {};
  for (const line of stage.filter((candidate) => candidate.startsWith('ENV ')))
    for (const [, key, value] of line.slice(4).matchAll(/([A-Z_]+)=(\S+)/g)) env[key!] = value!;
  const exec = (text: string | undefined) => JSON.parse(text!.slice(text!.indexOf('['))) as string[];
  return {
    env,
    entrypoint: exec(instruction('ENTRYPOINT')),
    cmd: exec(instruction('CMD')),
    healthcheck: exec(instruction('HEALTHCHECK')?.replace(/^.*?CMD /, 'CMD ')),
    user: instruction('USER'),
  };
}

describe('the container image', () => {
  it('runs its entry command, passes its healthcheck, and stops on SIGTERM with status 0', async () => {
    const image = finalStage(readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8'));
    expect(image.user).toBe('node');
    expect(image.env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    // The image's build stage runs `npm run build`; here the output is built when out of date.
    expect(
      spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: repoRoot, stdio: 'ignore' }).status,
    ).toBe(0);
    const port = await freePort();
    const env = {
      PATH: process.env.PATH!,
      ...image.env,
      // What compose.yaml passes for a public demo on the built-in simulator and sandbox.
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'simcode-image-')),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      JWT_SECRET: 'j'.repeat(40),
      ALTCHA_HMAC_KEY: 'a'.repeat(40),
      SMS_WEBHOOK_SECRET: 's'.repeat(40),
      DATA_ENCRYPTION_KEY: 'd'.repeat(64),
      SIMULATOR_ALLOW_IN_PRODUCTION: 'true',
      SANDBOX_ALLOW_IN_PRODUCTION: 'true',
      MAIL_TRANSPORT: 'outbox',
      MAIL_OUTBOX_ALLOW_IN_PRODUCTION: 'true',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    };
    const healthy = () => {
      const [command, ...args] = image.healthcheck;
      return spawnSync(command!, args, { cwd: repoRoot, env, timeout: 10_000 }).status === 0;
    };
    expect(healthy()).toBe(false);

    // The init when this machine has it (the image installs it), else the command alone.
    const [init, ...initArgs] = image.entrypoint;
    const [command, ...args] = existsSync(init!) ? [init!, ...initArgs, ...image.cmd] : image.cmd;
    const server: ChildProcess = spawn(command!, args, {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      const healthyBy = Date.now() + HEALTHY_WITHIN_MS;
      while (!healthy()) {
        if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}: ${stderr}`);
        if (Date.now() > healthyBy) throw new Error(`never healthy: ${stderr}`);
        await sleep(500);
      }
      server.kill('SIGTERM');
      expect(await Promise.race([exited, sleep(STOPPED_WITHIN_MS).then(() => 'still running')])).toBe(0);
      expect(healthy()).toBe(false);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startJobs } from './scheduler';

describe('the job scheduler', () => {
  it('reports a run that lasts past the threshold as stuck, and counts each run by outcome', async () => {
    let release: () => void = () => {};
    let started = false;
    const outcomes: string[] = [];
    const jobs = startJobs(
      [
        {
          name: 'hangs',
          intervalMs: 60_000,
          run: () =>
            new Promise<void>((resolve) => {
              started = true;
              release = resolve;
            }),
        },
        { name: 'fails', intervalMs: 60_000, run: async () => Promise.reject(new Error('upstream down')) },
      ],
      pino({ level: 'silent' }),
      (job, outcome) => outcomes.push(`${job}:${outcome}`),
    );
    for (let attempt = 0; attempt < 200 && !(started && outcomes.length > 0); attempt += 1) await sleep(10);
    await sleep(5);
    expect(jobs.stuck(0)).toEqual(['hangs']);
    expect(jobs.stuck(60_000)).toEqual([]);
    release();
    await jobs.stop();
    expect(jobs.stuck(0)).toEqual([]);
    expect(outcomes.sort()).toEqual(['fails:error', 'hangs:ok']);
  });
});

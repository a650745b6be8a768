import type { FastifyBaseLogger } from 'fastify';

export interface Job {
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  run(): Promise<void>;
}

export interface RunningJobs {
  stop(): Promise<void>;
}

/**
 * Runs each job on its own interval, never overlapping itself, logging failures and carrying on.
 * Work that must happen on one instance at a time takes a database lock inside the job itself.
 */
export function startJobs(jobs: Job[], log: FastifyBaseLogger): RunningJobs {
  let stopped = false;
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  const schedule = (job: Job, delayMs: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      const run = job
        .run()
        .catch((error: unknown) => log.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => {
          inFlight.delete(run);
          schedule(job, job.intervalMs);
        });
      inFlight.add(run);
    }, delayMs);
    // A pending job must not keep a finished process alive.
    timer.unref();
    timers.set(job.name, timer);
  };

  for (const job of jobs) schedule(job, 0);

  return {
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

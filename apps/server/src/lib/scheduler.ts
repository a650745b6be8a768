import type { FastifyBaseLogger } from 'fastify';
import { traceJob } from './tracing';

export interface Job {
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  run(): Promise<void>;
}

export interface RunningJobs {
  /** Jobs whose current run started more than `thresholdMs` ago: hung on a lock, a call or a bug. */
  stuck(thresholdMs: number): string[];
  stop(): Promise<void>;
}

/**
 * Runs each job on its own interval, never overlapping itself, logging failures and carrying on.
 * Work that must happen on one instance at a time takes a database lock inside the job itself.
 */
export function startJobs(
  jobs: Job[],
  log: FastifyBaseLogger,
  /** Told how each run ended (the metrics). */
  onRun?: (job: string, outcome: 'ok' | 'error') => void,
): RunningJobs {
  let stopped = false;
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const runningSinceMs = new Map<string, number>();

  const schedule = (job: Job, delayMs: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      runningSinceMs.set(job.name, Date.now());
      const run = traceJob(job.name, () => job.run())
        .then(
          () => onRun?.(job.name, 'ok'),
          (error: unknown) => {
            onRun?.(job.name, 'error');
            log.error({ err: error, job: job.name }, 'job failed');
          },
        )
        .finally(() => {
          runningSinceMs.delete(job.name);
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
    stuck(thresholdMs) {
      const now = Date.now();
      return [...runningSinceMs].filter(([, sinceMs]) => now - sinceMs > thresholdMs).map(([name]) => name);
    },
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

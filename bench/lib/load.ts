import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers that were not 2xx. */
  non2xx: number;
  /** How many answers had each status that was not 2xx: what the errors were. */
  refusals: Record<string, number>;
  totalRequests: number;
  /** Bytes read per answer (status line, headers and body, as sent: compressed where it was). */
  bytesPerRequest: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Headers that change from request to request (one user per token), taken in turn. */
  rotatingHeaders?: Array<Record<string, string>>;
  connections?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  /** Called right before the measured run (after the warm-up); what it returns, right after it. */
  onMeasuredRun?: () => () => void;
}

/** Shorter runs for trying the scripts out (`BENCH_SECONDS=2`); the published figures use the default. */
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function run(options: LoadOptions, durationSeconds: number): Promise<autocannon.Result> {
  const headers = { ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers };
  let turn = 0;
  const rotating = options.rotatingHeaders;
  return autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers,
    body: options.body,
    connections: options.connections ?? 100,
    duration: durationSeconds,
    ...(rotating?.length
      ? {
          requests: [
            {
              setupRequest: (request) => {
                turn = (turn + 1) % rotating.length;
                return { ...request, headers: { ...headers, ...rotating[turn] } };
              },
            },
          ],
        }
      : {}),
  });
}

/** autocannon after a warm-up (JIT, caches, connection pools), as the figures of a running service. */
export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  if ((options.warmupSeconds ?? 2) > 0) await run(options, options.warmupSeconds ?? 2);
  const measured = options.onMeasuredRun?.();
  const result = await run(options, options.durationSeconds ?? DURATION_SECONDS);
  measured?.();
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    refusals: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {})
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, stats]) => [status, stats?.count ?? 0]),
    ),
    totalRequests: result.requests.total,
    bytesPerRequest: result.throughput.total / Math.max(1, result.requests.total),
  };
}

/**
 * The built-in simulators in a worker thread of their own (ADR 0037). The product calls them on the
 * worker's loopback port; anyone else reaches them on the server's port under `/simulator`, which passes
 * each request on. The worker keeps their state through this thread, which holds the database.
 */
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { request } from 'undici';
import { fail } from '../../lib/errors';
import { type ThreadCalls, threadCalls } from '../../lib/thread-calls';
import type { SimulatorHost, SimulatorSpec, SimulatorSurroundings } from './host';
import type { ServerSide, SimulatorWorkerData, WorkerSide } from './thread-protocol';

/** Where every simulator's prefix starts. */
const SIMULATORS_PREFIX = '/simulator';

/** Headers of one connection, not of the message: each hop sets its own. */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

function passedOn(headers: Record<string, string | string[] | undefined>) {
  const passed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !CONNECTION_HEADERS.has(name)) passed[name] = value;
  }
  return passed;
}

/** Passes every request under the prefix on to the worker, its body as it came. */
function passingOn(origin: () => string): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const passOn = async (incoming: FastifyRequest, reply: FastifyReply) => {
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(`${origin()}${incoming.url}`, {
          method: incoming.method as 'GET',
          headers: passedOn(incoming.headers),
          body: incoming.body as Buffer | undefined,
        });
      } catch {
        throw fail('upstream_unavailable');
      }
      const body = Buffer.from(await answer.body.arrayBuffer());
      return reply.code(answer.statusCode).headers(passedOn(answer.headers)).send(body);
    };
    app.all('/', passOn);
    app.all('/*', passOn);
  };
}

/**
 * The worker's young generation: V8's default of 16 MB held some 20 MB more of resident memory at rest
 * (ADR 0037), while the simulators' requests make little garbage; the old generation's cap keeps a runaway
 * state from taking the server's memory (the worker fails alone, and the product fails over).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };

/** The worker's entry: the TypeScript source under a TypeScript loader (tests, `npm run dev`), else the build's. */
function startWorker(workerData: SimulatorWorkerData): Worker {
  const options = { workerData, resourceLimits: WORKER_LIMITS };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./simulators-worker.js', import.meta.url), options);
  const entry = new URL('./worker.ts', import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { ...options, eval: true },
  );
}

export function workerSimulators(
  specs: readonly SimulatorSpec[],
  around: Omit<SimulatorSurroundings, 'clock'>,
  log: FastifyBaseLogger,
): SimulatorHost {
  let worker: Worker | undefined;
  let calls: ThreadCalls<WorkerSide> | undefined;
  let workerOrigin = '';
  const windows = new Map<string, number>();
  let lastTurnId = 0;
  const openTurns = new Map<number, { end(kept: boolean): Promise<void> }>();

  const serverSide: ServerSide = {
    loadState: (stateName) => around.store(stateName).load(),
    saveState: (stateName, changes) => around.store(stateName).save(changes),
    async beginTurn(stateName) {
      const turn = await around.sharedTurns(stateName)!.begin();
      const turnId = ++lastTurnId;
      openTurns.set(turnId, turn);
      return { turnId, stale: turn.stale };
    },
    async endTurn(turnId, kept) {
      const turn = openTurns.get(turnId);
      openTurns.delete(turnId);
      await turn?.end(kept);
    },
    changedElsewhere: (stateName) => around.sharedTurns(stateName)!.changedElsewhere(),
    earlyCancelChanged(name, earlyCancelMs) {
      windows.set(name, earlyCancelMs);
    },
    log(level, details, message) {
      around.logger[level](details, message);
    },
  };

  /** A worker that is gone leaves no caller waiting and no turn holding a connection. */
  function gone(error: Error) {
    calls?.failPending(error);
    for (const turn of openTurns.values()) void turn.end(false).catch(() => {});
    openTurns.clear();
  }

  return {
    inProcess: [],
    async mount(app) {
      await app.register(
        passingOn(() => workerOrigin),
        { prefix: SIMULATORS_PREFIX },
      );
    },
    origin: () => workerOrigin,
    earlyCancelMs: (name) => windows.get(name) ?? 0,
    async load() {
      const sharedStates = specs
        .map((spec) => spec.stateName)
        .filter((stateName) => around.sharedTurns(stateName) !== undefined);
      const started = startWorker({ specs: [...specs], sharedStates });
      worker = started;
      calls = threadCalls<WorkerSide, ServerSide>(started, serverSide);
      started.on('error', (error) => {
        log.error({ err: error }, 'the simulators worker failed');
        gone(error);
      });
      started.on('exit', (exitCode) => {
        if (worker === started) log.error({ exitCode }, 'the simulators worker stopped');
        gone(new Error(`the simulators worker exited with ${exitCode}`));
      });
      const loaded = await calls.call('load');
      workerOrigin = loaded.origin;
      for (const [name, earlyCancelMs] of Object.entries(loaded.earlyCancelMs))
        windows.set(name, earlyCancelMs);
    },
    start() {
      calls
        ?.call('start', around.serverOrigin())
        .catch((error: unknown) => log.error({ err: error }, 'the simulators could not start'));
    },
    async stop() {
      const stopping = worker;
      if (!stopping || !calls) return;
      await calls.call('stop');
      // Expected from here on: not a failure to report.
      worker = undefined;
      await stopping.terminate();
    },
  };
}

/**
 * The simulators' worker thread: serves every built-in simulator on a loopback port of its own, with the
 * server's prefixes, and keeps their state through the server (which holds the database: an embedded one
 * opens in one thread only). Started by worker-host.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SharedTurnPort, StandInLogger } from '@simcode/stand-ins';
import Fastify from 'fastify';
import { systemClock } from '../../lib/clock';
import { answerError, installErrorHandler } from '../../lib/error-handler';
import { fail } from '../../lib/errors';
import { enterRequestLanguage, installRequestLanguage } from '../../lib/request-language';
import { threadCalls } from '../../lib/thread-calls';
import { simulatorOf } from './host';
import type { ServerSide, SimulatorWorkerData, WorkerSide } from './thread-protocol';

const { specs, sharedStates } = workerData as SimulatorWorkerData;
let serverOrigin = '';
// Refusals in the server's one error shape, as when the simulators were plugins of the server itself.
const app = Fastify({ logger: false, frameworkErrors: answerError });
installErrorHandler(app);
// In the request's language too: the server's messages in every language, entered per request.
const languagesInstalled = installRequestLanguage(app);
app.addHook('onRequest', (request, _reply, done) => enterRequestLanguage(request, done));
app.setNotFoundHandler((request, reply) => answerError(fail('not_found'), request, reply));

const worker: WorkerSide = {
  async load() {
    await languagesInstalled;
    for (const { simulator } of simulators) await simulator.load();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the simulators listen on no TCP port');
    return { origin: `http://127.0.0.1:${address.port}`, earlyCancelMs: Object.fromEntries(toldWindows) };
  },
  start(origin) {
    serverOrigin = origin;
    for (const { simulator } of simulators) simulator.start();
  },
  async stop() {
    for (const { simulator } of simulators) await simulator.stop();
    await app.close();
  },
};
const server = threadCalls<ServerSide, WorkerSide>(parentPort!, worker);

function sharedTurns(stateName: string): SharedTurnPort | undefined {
  if (!sharedStates.includes(stateName)) return undefined;
  return {
    async begin() {
      const { turnId, stale } = await server.call('beginTurn', stateName);
      return { stale, end: (kept) => server.call('endTurn', turnId, kept) };
    },
    changedElsewhere: () => server.call('changedElsewhere', stateName),
  };
}

const logger: StandInLogger = {
  info: (details, message) => void server.call('log', 'info', details, message),
  warn: (details, message) => void server.call('log', 'warn', details, message),
  error: (details, message) => void server.call('log', 'error', details, message),
};

const simulators = specs.map((spec) => ({
  spec,
  simulator: simulatorOf(spec, {
    store: (stateName) => ({
      load: () => server.call('loadState', stateName),
      save: (changes) => server.call('saveState', stateName, changes),
    }),
    sharedTurns,
    clock: systemClock,
    serverOrigin: () => serverOrigin,
    logger,
  }),
}));
/** The no-cancel windows the server was last told of. */
const toldWindows = new Map(simulators.map(({ spec, simulator }) => [spec.name, simulator.earlyCancelMs()]));
app.addHook('onSend', async () => {
  for (const { spec, simulator } of simulators) {
    const earlyCancelMs = simulator.earlyCancelMs();
    if (toldWindows.get(spec.name) === earlyCancelMs) continue;
    toldWindows.set(spec.name, earlyCancelMs);
    await server.call('earlyCancelChanged', spec.name, earlyCancelMs);
  }
});
// Not awaited: every simulator is registered before the server's first call (`load`) can arrive.
for (const { spec, simulator } of simulators) app.register(simulator.plugin, { prefix: spec.prefix });

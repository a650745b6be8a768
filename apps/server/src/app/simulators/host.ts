/**
 * Where the built-in SMS simulators run. By default in a worker thread of their own (ADR 0037): their
 * delivery timers, their requests and their writes' bookkeeping then take nothing of the event loop that
 * serves the customers, and they still answer on the server's port from the outside. Tests that move a
 * manual clock keep them on the server's loop (`SIMULATORS_THREAD=main`), where a test can tick them.
 */
import {
  createSimulator,
  type SharedTurnPort,
  type SimStateStore,
  type Simulator,
  type SimulatorOptions,
  type StandInLogger,
} from '@simcode/stand-ins';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../lib/clock';

/** A built-in simulator as plain data, so that it can cross to the simulators' worker. */
export interface SimulatorSpec {
  name: string;
  /** `/simulator` for the first one (where it always was), `/simulator/<name>` for the others. */
  prefix: string;
  /** Where its state is kept (`sim-a` for the single simulator of before the pool). */
  stateName: string;
  /** Where it pushes each activation SMS on this server, like a provider's account-wide webhook; 5sim pushes nothing. */
  webhookPath?: string;
  settings: Pick<
    SimulatorOptions,
    | 'apiKey'
    | 'protocol'
    | 'seed'
    | 'smsDelayMinMs'
    | 'smsDelayMaxMs'
    | 'noSmsRate'
    | 'earlyCancelMs'
    | 'errorStyle'
  >;
}

/** What a simulator is handed by the thread it runs on. */
export interface SimulatorSurroundings {
  store(stateName: string): SimStateStore;
  /** Turns with other processes serving the same state; undefined when this one serves it alone. */
  sharedTurns(stateName: string): SharedTurnPort | undefined;
  clock: Clock;
  /** The server's own origin, once it listens: where the pushes go. */
  serverOrigin(): string;
  logger: StandInLogger;
}

export function simulatorOf(spec: SimulatorSpec, around: SimulatorSurroundings): Simulator {
  const { webhookPath } = spec;
  return createSimulator({
    ...spec.settings,
    store: around.store(spec.stateName),
    sharedTurns: around.sharedTurns(spec.stateName),
    clock: around.clock,
    activationWebhookUrl: webhookPath ? () => `${around.serverOrigin()}${webhookPath}` : undefined,
    logger: around.logger,
  });
}

/** A simulator served on the server's own event loop. */
export interface MountedSimulator {
  name: string;
  prefix: string;
  simulator: Simulator;
}

export interface SimulatorHost {
  /** The simulators on the server's own loop, for tests that tick them; none when they run in a worker. */
  readonly inProcess: readonly MountedSimulator[];
  /** Serves them on the server's port, as their real counterparts answer on theirs. */
  mount(app: FastifyInstance): Promise<void>;
  /** Where the product calls them: their paths are their prefixes under it. */
  origin(): string;
  /** How long after a purchase the named one refuses a cancel now (its control API changes it). */
  earlyCancelMs(name: string): number;
  /** Reads their saved state; before anything is served. */
  load(): Promise<void>;
  /** Starts their deliveries; once the server listens for their pushes. */
  start(): void;
  /** Stops their deliveries and waits for their last writes. */
  stop(): Promise<void>;
}

export function inProcessSimulators(
  specs: readonly SimulatorSpec[],
  around: SimulatorSurroundings,
): SimulatorHost {
  const mounted = specs.map((spec) => ({
    name: spec.name,
    prefix: spec.prefix,
    simulator: simulatorOf(spec, around),
  }));
  const byName = new Map(mounted.map(({ name, simulator }) => [name, simulator]));
  return {
    inProcess: mounted,
    async mount(app) {
      for (const { simulator, prefix } of mounted) await app.register(simulator.plugin, { prefix });
    },
    origin: around.serverOrigin,
    earlyCancelMs: (name) => byName.get(name)!.earlyCancelMs(),
    async load() {
      for (const { simulator } of mounted) await simulator.load();
    },
    start() {
      for (const { simulator } of mounted) simulator.start();
    },
    async stop() {
      for (const { simulator } of mounted) await simulator.stop();
    },
  };
}

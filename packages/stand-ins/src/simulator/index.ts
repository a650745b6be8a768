import { EARLY_CANCEL_MS, type ResponseStyle, saDateTime } from '@simcode/sms-activate-protocol';
import type { FastifyPluginAsync } from 'fastify';
import { ChangeBatcher } from '../change-batcher';
import { type Clock, systemClock } from '../clock';
import type { StandInLogger } from '../logger';
import { type SharedTurnPort, SharedTurns } from '../shared-turns';
import { SimulatorEngine } from './engine';
import type { SimSettings } from './engine-core';
import { FaultQueue } from './faults';
import type { Delivery, SimChange } from './model';
import { type SimProtocol, type SimulatorRuntime, simulatorPlugin } from './plugin';
import { changesOf, type SimStateStore, stateOfRecords } from './state-store';
import { WebhookPusher } from './webhooks';

export type { SimProtocol } from './plugin';

export interface SimulatorOptions {
  /** The key clients must send (`api_key`, or 5sim's bearer token), and the control API's `x-simulator-key`. */
  apiKey: string;
  /** SMS-Activate's handler_api.php unless told; `fivesim` answers 5sim.net's REST API instead. */
  protocol?: SimProtocol;
  /** Same seed, same catalog, numbers and SMS schedule. */
  seed?: number;
  smsDelayMinMs: number;
  smsDelayMaxMs: number;
  /** Share (0..1) of activations that never receive an SMS. */
  noSmsRate: number;
  /** A cancel is refused for this long after purchase; two minutes unless told. */
  earlyCancelMs?: number;
  /** Where the state survives a restart (the product's database); in memory only when absent. */
  store?: SimStateStore;
  /** When other processes serve this simulator from the same store: they take turns (see SharedTurns). */
  sharedTurns?: SharedTurnPort;
  clock?: Clock;
  /** Where each activation SMS is pushed, when it returns a URL (like a provider's account-wide webhook). */
  activationWebhookUrl?: () => string | undefined;
  logger?: StandInLogger;
  /** 'classic' unless told; switchable at run time through the control API. */
  responseStyle?: ResponseStyle;
  /** How refusals are told: the response style's way unless told (control API: `settings.errorStyle`). */
  errorStyle?: ResponseStyle;
  /** How often the delivery timer runs. */
  tickIntervalMs?: number;
}

export interface Simulator {
  /** Mount with `app.register(simulator.plugin, { prefix: '/simulator' })`. */
  plugin: FastifyPluginAsync;
  /** Reads the saved state; before the plugin serves anything. */
  load(): Promise<void>;
  /** Starts the delivery timer; once the webhook receiver listens. */
  start(): void;
  /** Stops the timer and pending pushes, and waits for the last writes. */
  stop(): Promise<void>;
  /** One run of the delivery loop, for tests that move a manual clock. */
  tick(): Promise<void>;
  /** How long after a purchase it refuses a cancel now (its control API changes it), as a supplier documents its own. */
  earlyCancelMs(): number;
}

const DEFAULT_SEED = 1;
const DEFAULT_TICK_INTERVAL_MS = 200;
/** Shared: how often a process with nothing due asks whether another one changed the state. */
const SHARED_CHECK_INTERVAL_MS = 1000;

/**
 * The built-in SMS provider: an SMS-Activate-compatible `handler_api.php` with a realistic catalog and
 * activations and rents that receive SMS over time. It is the default upstream when no real provider is
 * configured, and the product reaches it over HTTP with the same adapter as a real provider.
 */
export function createSimulator(options: SimulatorOptions): Simulator {
  const clock = options.clock ?? systemClock;
  const initialSettings: SimSettings = {
    seed: options.seed ?? DEFAULT_SEED,
    smsDelayMinMs: options.smsDelayMinMs,
    smsDelayMaxMs: options.smsDelayMaxMs,
    noSmsRate: options.noSmsRate,
    earlyCancelMs: options.earlyCancelMs ?? EARLY_CANCEL_MS,
  };
  const settings = { ...initialSettings };
  const { store } = options;
  const changes = new ChangeBatcher<SimChange>(async (changed) =>
    store?.save(changesOf(engine.state, changed)),
  );
  const engine = new SimulatorEngine(settings, clock, (change) => {
    if (store) changes.mark(change);
  });
  const pusher = new WebhookPusher(clock, options.logger);
  let timer: NodeJS.Timeout | undefined;

  async function load(): Promise<void> {
    const saved = await store?.load();
    if (saved) engine.restore(stateOfRecords(saved.account, saved.orders));
  }
  const turns = new SharedTurns(options.sharedTurns, load, () => changes.save());

  function deliver(delivery: Delivery): void {
    const receivedAt = saDateTime(delivery.sms.receivedAtMs);
    if (delivery.type === 'activation') {
      const url = options.activationWebhookUrl?.();
      if (!url) return;
      const { activation, sms } = delivery;
      pusher.push(url, {
        activationId: Number(activation.id),
        service: activation.service,
        text: sms.text,
        code: sms.code,
        country: activation.countryId,
        receivedAt,
        phoneFrom: sms.from,
      });
    } else {
      const { rent, sms } = delivery;
      if (rent.webhookUrl) {
        pusher.push(rent.webhookUrl, {
          rentId: rent.id,
          sms: { phoneFrom: sms.from, text: sms.text, date: receivedAt },
        });
      }
    }
  }

  /** Due SMS are stored before they are pushed: what the product hears of survives a crash. */
  async function tick(): Promise<void> {
    const deliveries = engine.tick();
    if (deliveries.length > 0 && store) await changes.save();
    for (const delivery of deliveries) deliver(delivery);
    pusher.process();
  }

  let checkedElsewhereAtMs = 0;
  /**
   * Shared, a tick takes a turn only when something is due here or, at most once a second, when another
   * process changed the state (what it scheduled is due here too if it stopped): a turn is a transaction.
   */
  async function tickWhenDue(): Promise<void> {
    if (!turns.shared) return tick();
    const now = clock.now().getTime();
    let due = now >= engine.nextDueAtMs;
    if (!due && now - checkedElsewhereAtMs >= SHARED_CHECK_INTERVAL_MS) {
      checkedElsewhereAtMs = now;
      due = await turns.changedElsewhere();
    }
    if (due) await turns.run(tick);
    else pusher.process();
  }

  function tickFromTimer(): void {
    tickWhenDue().catch((error: unknown) =>
      options.logger?.error({ err: error }, 'simulator state could not be saved'),
    );
  }

  const runtime: SimulatorRuntime = {
    apiKey: options.apiKey,
    protocol: options.protocol ?? 'smsactivate',
    engine,
    settings,
    faults: new FaultQueue(),
    style: options.responseStyle ?? 'classic',
    errorStyle: options.errorStyle ?? options.responseStyle ?? 'classic',
    now: () => clock.now().getTime(),
    tick,
    inTurn: (work) => turns.run(work),
    deliver,
    reset() {
      Object.assign(settings, initialSettings);
      runtime.style = options.responseStyle ?? 'classic';
      runtime.errorStyle = options.errorStyle ?? options.responseStyle ?? 'classic';
      runtime.faults.clear();
      pusher.stop();
      engine.reset();
    },
  };

  return {
    plugin: simulatorPlugin(runtime),
    // Shared, the first turn reads the state.
    load: () => (turns.shared ? turns.run(() => {}) : load()),
    start() {
      if (timer) return;
      timer = setInterval(tickFromTimer, options.tickIntervalMs ?? DEFAULT_TICK_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      pusher.stop();
      await changes.save();
    },
    tick: () => turns.run(tick),
    earlyCancelMs: () => runtime.settings.earlyCancelMs,
  };
}

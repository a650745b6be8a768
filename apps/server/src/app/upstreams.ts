/**
 * The container's outside world: the pool of SMS suppliers (the built-in simulators among them) and the
 * payment providers with their sandboxes, built from the configuration; container.ts calls each once.
 */
import { createNowPaymentsSandbox, createPaymentSandbox } from '@simcode/stand-ins';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import type { Clock } from '../lib/clock';
import type { Loopback } from '../lib/loopback';
import type { Metrics } from '../lib/metrics';
import { createCryptomusProvider } from '../providers/payments/cryptomus/provider';
import { createNowPaymentsProvider } from '../providers/payments/nowpayments/provider';
import type { PaymentProvider } from '../providers/payments/types';
import { createFiveSimProvider, FIVESIM_DEFAULT_URL } from '../providers/sms/fivesim';
import { ProviderHealth } from '../providers/sms/health';
import { type PoolMember, ProviderPool } from '../providers/sms/pool';
import { parseRoutingPins } from '../providers/sms/routing';
import { createSmsActivateProvider } from '../providers/sms/sms-activate';
import { smsWebhookPath } from '../providers/sms/webhook-path';
import {
  createNowPaymentsStore,
  createSandboxStore,
  createSandboxWalletStore,
  createSharedTurnPort,
  createSimStateStore,
} from '../providers/stand-in-stores';
import { inProcessSimulators, type SimulatorHost, type SimulatorSpec } from './simulators/host';
import { workerSimulators } from './simulators/worker-host';

/** Where the built-in NOWPayments sandbox is mounted. */
export const NOWPAYMENTS_SANDBOX_PREFIX = '/sandbox/nowpayments';

/** The SMS-Activate family's no-cancel window after a purchase (EARLY_CANCEL_DENIED before it). */
const SMS_ACTIVATE_EARLY_CANCEL_MS = 120_000;

/**
 * A supplier's no-cancel window after a purchase: the SMS-Activate family documents two minutes (Hero's
 * `minActivationTime` of 120 s); 5sim names none, its answer says. A built-in simulator applies the window
 * it is set to now, which its control API changes.
 */
function earlyCancelWindow(
  protocol: 'smsactivate' | 'fivesim',
  simulator: { name: string; host: SimulatorHost } | undefined,
) {
  if (simulator) return () => simulator.host.earlyCancelMs(simulator.name);
  return protocol === 'smsactivate' ? () => SMS_ACTIVATE_EARLY_CANCEL_MS : () => 0;
}

/** Turns with the other instances serving a stand-in, unless this instance serves them alone. */
function sharedTurnsOf(config: Config, database: DatabaseHandle) {
  return (name: string) => (config.STAND_INS_SHARED ? createSharedTurnPort(database, name) : undefined);
}

/** The built-in simulators of SMS_PROVIDERS, as plain data. */
function simulatorSpecs(config: Config): SimulatorSpec[] {
  const specs: SimulatorSpec[] = [];
  for (const settings of config.smsProviders) {
    if (settings.kind !== 'simulator') continue;
    const protocol = settings.protocol ?? 'smsactivate';
    // The single simulator of before the pool kept its state as `sim-a`.
    const stateName = settings.name === 'simulator' ? 'sim-a' : settings.name;
    specs.push({
      name: settings.name,
      prefix: specs.length === 0 ? '/simulator' : `/simulator/${settings.name}`,
      stateName,
      // 5sim pushes nothing: its orders are read by the sync.
      webhookPath:
        protocol === 'smsactivate' ? smsWebhookPath(config.SMS_WEBHOOK_SECRET, settings.name) : undefined,
      settings: {
        apiKey: settings.key!,
        protocol,
        seed: settings.seed,
        smsDelayMinMs: config.SIMULATOR_SMS_DELAY_MIN_MS,
        smsDelayMaxMs: config.SIMULATOR_SMS_DELAY_MAX_MS,
        noSmsRate: settings.noSmsRate ?? config.SIMULATOR_NO_SMS_RATE,
        earlyCancelMs: config.SIMULATOR_EARLY_CANCEL_MS,
        errorStyle: settings.errorStyle,
      },
    });
  }
  return specs;
}

/** The built-in simulators, on the thread the configuration names, their state in the product's database. */
function createSimulatorHost(
  specs: readonly SimulatorSpec[],
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
): SimulatorHost {
  const sharedTurns = sharedTurnsOf(config, database);
  // One store and one turn port per state: a port remembers which revision its copy reflects.
  const stores = new Map(
    specs.map(({ stateName }) => [stateName, createSimStateStore(database.db, stateName)]),
  );
  const ports = new Map(specs.map(({ stateName }) => [stateName, sharedTurns(`sim:${stateName}`)]));
  const around = {
    store: (stateName: string) => stores.get(stateName)!,
    sharedTurns: (stateName: string) => ports.get(stateName),
    serverOrigin: () => loopback.origin,
    logger: log,
  };
  return config.SIMULATORS_THREAD === 'worker' && specs.length > 0
    ? workerSimulators(specs, around, log)
    : inProcessSimulators(specs, { ...around, clock });
}

export function createSmsUpstreams(
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
  metrics: Metrics,
) {
  const specs = simulatorSpecs(config);
  const simulators = createSimulatorHost(specs, config, database, loopback, clock, log);
  const members: PoolMember[] = config.smsProviders.map((settings) => {
    // A simulator is reached over HTTP like the real kind it imitates.
    const spec = specs.find((simulator) => simulator.name === settings.name);
    let protocol: 'smsactivate' | 'fivesim' = settings.kind === 'fivesim' ? 'fivesim' : 'smsactivate';
    let baseUrl: string | (() => string) =
      settings.url ?? (settings.kind === 'fivesim' ? FIVESIM_DEFAULT_URL : '');
    if (spec) {
      protocol = spec.settings.protocol ?? 'smsactivate';
      baseUrl =
        protocol === 'fivesim'
          ? () => `${simulators.origin()}${spec.prefix}/v1`
          : () => `${simulators.origin()}${spec.prefix}/stubs/handler_api.php`;
    }
    const common = {
      name: settings.name,
      kind: settings.kind,
      usdRate: settings.usdRate,
      earlyCancelMs: earlyCancelWindow(protocol, spec && { name: spec.name, host: simulators }),
    };
    if (protocol === 'fivesim') {
      const provider = createFiveSimProvider({
        name: settings.name,
        baseUrl,
        token: settings.key!,
        timeoutMs: settings.timeoutMs,
        logger: log,
      });
      // 5sim sells rents as fixed products of its own: not the rent this product offers.
      return { ...common, provider };
    }
    const provider = createSmsActivateProvider({
      name: settings.name,
      baseUrl,
      apiKey: settings.key!,
      timeoutMs: settings.timeoutMs,
      timeZone: settings.timeZone,
      idMap: settings.idMap,
      logger: log,
      sendsResellerUserId: settings.resellerUserId,
    });
    return { ...common, provider, rents: provider };
  });
  const pool = new ProviderPool(
    members,
    new ProviderHealth({
      clock,
      failuresToCool: config.SMS_PROVIDER_FAILURES_TO_COOL,
      cooldownMs: config.SMS_PROVIDER_COOLDOWN_MS,
      onCall: (provider, outcome, latencyMs) => {
        metrics.upstreamCalls.inc({ provider, outcome });
        metrics.upstreamDuration.observe({ provider }, latencyMs / 1000);
      },
    }),
    parseRoutingPins(
      config.SMS_ROUTING_PINS,
      members.map((member) => member.name),
    ),
  );
  return { pool, simulators };
}

/**
 * The payment pool: one adapter per provider of PAYMENT_PROVIDERS, in order. In the sandbox every
 * Cryptomus-kind provider talks to the built-in Cryptomus sandbox and NOWPayments to its own, all through
 * the same adapters as the real processors.
 */
export function createPayments(
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
) {
  const sharedTurns = sharedTurnsOf(config, database);
  const sandboxed = (kind: string) =>
    config.sandboxEnabled && config.paymentProviders.some((provider) => provider.kind === kind);
  const cryptomusSettings = config.paymentProviders.find((provider) => provider.kind === 'cryptomus');
  const paymentSandbox =
    sandboxed('cryptomus') && cryptomusSettings?.kind === 'cryptomus'
      ? createPaymentSandbox({
          merchantId: cryptomusSettings.merchantId,
          apiKey: cryptomusSettings.apiKey,
          publicUrl: () => config.PUBLIC_URL,
          store: createSandboxStore(database.db),
          walletStore: createSandboxWalletStore(database.db),
          sharedTurns: sharedTurns('sandbox:cryptomus'),
          clock,
          logger: log,
        })
      : undefined;
  const nowPaymentsSettings = config.paymentProviders.find((provider) => provider.kind === 'nowpayments');
  const nowPaymentsSandbox =
    sandboxed('nowpayments') && nowPaymentsSettings?.kind === 'nowpayments'
      ? createNowPaymentsSandbox({
          apiKey: nowPaymentsSettings.apiKey,
          ipnSecret: nowPaymentsSettings.ipnSecret,
          email: nowPaymentsSettings.email,
          password: nowPaymentsSettings.password,
          publicUrl: () => config.PUBLIC_URL,
          clock,
          logger: log,
          store: createNowPaymentsStore(database.db),
          sharedTurns: sharedTurns('sandbox:nowpayments'),
        })
      : undefined;
  const paymentProviders: PaymentProvider[] = config.paymentProviders.map((settings) =>
    settings.kind === 'nowpayments'
      ? createNowPaymentsProvider({
          name: settings.name,
          baseUrl: settings.baseUrl ?? (() => `${loopback.origin}${NOWPAYMENTS_SANDBOX_PREFIX}`),
          apiKey: settings.apiKey,
          ipnSecret: settings.ipnSecret,
          email: settings.email,
          password: settings.password,
          timeoutMs: 10_000,
          clock,
        })
      : createCryptomusProvider({
          name: settings.name,
          baseUrl: settings.baseUrl ?? (() => `${loopback.origin}/sandbox/cryptomus`),
          merchantId: settings.merchantId,
          apiKey: settings.apiKey,
          timeoutMs: 10_000,
          webhookIps: settings.webhookIps,
        }),
  );
  return { paymentProviders, paymentSandbox, nowPaymentsSandbox };
}

import {
  receivedWebhook,
  SANDBOX_KEY,
  SANDBOX_MERCHANT,
  SIMULATOR_KEY,
  startSandbox as startBareSandbox,
  startSimulator as startBareSimulator,
} from '@simcode/stand-ins/testing';
import { createCryptomusProvider } from '../../src/providers/payments/cryptomus/provider';
import {
  createSmsActivateProvider,
  type SmsActivateProviderOptions,
} from '../../src/providers/sms/sms-activate';

/** The stand-ins on their own ports, each with our adapter pointed at it: what the adapters' tests drive. */

export async function startSimulator(
  overrides: Parameters<typeof startBareSimulator>[0] = {},
  providerOverrides: Partial<SmsActivateProviderOptions> = {},
) {
  const harness = await startBareSimulator(overrides);
  const provider = createSmsActivateProvider({
    baseUrl: () => harness.handlerUrl,
    apiKey: SIMULATOR_KEY,
    timeoutMs: 2000,
    retryBackoffMs: 5,
    ...providerOverrides,
  });
  return { ...harness, provider };
}

export type SimulatorHarness = Awaited<ReturnType<typeof startSimulator>>;

/** The sandbox with a webhook receiver and our Cryptomus adapter; stop it with stopSandbox. */
export async function startSandbox(options: Parameters<typeof startBareSandbox>[0] = {}) {
  const harness = await startBareSandbox(options);
  const payments = createCryptomusProvider({
    baseUrl: () => `${harness.origin}/sandbox/cryptomus`,
    merchantId: SANDBOX_MERCHANT,
    apiKey: SANDBOX_KEY,
    timeoutMs: 5000,
    webhookIps: ['127.0.0.1'],
  });
  return { ...harness, payments };
}

export type SandboxHarness = Awaited<ReturnType<typeof startSandbox>>;

/** Waits for the receiver to hold this many webhooks and returns the last one, verified by the adapter. */
export async function webhookNumber(h: SandboxHarness, count: number) {
  const { raw, ip } = await receivedWebhook(h, count);
  return { raw, webhook: h.payments.verifyWebhook(raw, ip) };
}

/// <reference path="./sms-activate.d.ts" />
// The stand-ins' test harnesses, for the tests of their clients (the product's adapters) as well.
export { ManualClock } from './manual-clock';
export {
  type Harness as SandboxHarness,
  KEY as SANDBOX_KEY,
  MERCHANT as SANDBOX_MERCHANT,
  pressButton,
  receivedWebhook,
  startSandbox,
  stopAllSandboxes,
  stopSandbox,
} from './sandbox';
export { SIMULATOR_KEY, type SimulatorHarness, startSimulator, startWebhookReceiver } from './simulator';

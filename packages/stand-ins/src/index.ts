export type { Clock } from './clock';
export type { StandInLogger } from './logger';
export { NOWPAYMENTS_SANDBOX_COINS, NOWPAYMENTS_SERVICE_FEE_BPS } from './nowpayments/model';
export {
  createNowPaymentsSandbox,
  type NowPaymentsSandbox,
  type NowPaymentsSandboxOptions,
} from './nowpayments/sandbox';
export {
  createPaymentSandbox,
  type PaymentSandbox,
  type PaymentSandboxOptions,
} from './sandbox/sandbox';
export type { SandboxInvoiceRecord, SandboxStore } from './sandbox/state';
export type { SandboxWalletStore } from './sandbox/wallets';
export type { SharedTurnPort } from './shared-turns';
export {
  createSimulator,
  type SimProtocol,
  type Simulator,
  type SimulatorOptions,
} from './simulator';
export type {
  SimAccountRecord,
  SimOrderRecord,
  SimStateChanges,
  SimStateStore,
} from './simulator/state-store';
export {
  createTelegramStandIn,
  TELEGRAM_STAND_IN_PREFIX,
  type TelegramRecordedMessage,
  type TelegramStandIn,
} from './telegram';

export type { Clock } from './clock';
export type { StandInLogger } from './logger';
export {
  createPaymentSandbox,
  type PaymentSandbox,
  type PaymentSandboxOptions,
} from './sandbox/sandbox';
export type { SandboxInvoiceRecord, SandboxStore } from './sandbox/state';
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

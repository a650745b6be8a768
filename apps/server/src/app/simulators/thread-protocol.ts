/** What the server and the simulators' worker ask of each other (worker-host.ts and worker.ts). */
import type { SimStateChanges, SimStateStore } from '@simcode/stand-ins';
import type { SimulatorSpec } from './host';

export interface SimulatorWorkerData {
  specs: SimulatorSpec[];
  /** The states other processes serve too (their simulators take turns through the server). */
  sharedStates: string[];
}

/** The server's side: the database and the logger stay on the server's thread. */
export interface ServerSide {
  loadState(stateName: string): ReturnType<SimStateStore['load']>;
  saveState(stateName: string, changes: SimStateChanges): Promise<void>;
  beginTurn(stateName: string): Promise<{ turnId: number; stale: boolean }>;
  endTurn(turnId: number, kept: boolean): Promise<void>;
  changedElsewhere(stateName: string): Promise<boolean>;
  /** Told before the answer that changed it leaves, so the product never reads an older window. */
  earlyCancelChanged(name: string, earlyCancelMs: number): void;
  log(level: 'info' | 'warn' | 'error', details: object, message: string): void;
}

/** The worker's side. */
export interface WorkerSide {
  /** Reads the saved states and listens on a loopback port. */
  load(): Promise<{ origin: string; earlyCancelMs: Record<string, number> }>;
  start(serverOrigin: string): void;
  stop(): Promise<void>;
}

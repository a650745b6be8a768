import type { SimActivation, SimChange, SimRent, SimState } from './model';

/** An instance's counters, balance and sold stock. */
export interface SimAccountRecord {
  nextActivationId: number;
  nextRentId: number;
  balanceUsd: number;
  /** Numbers sold in the current stock period, by `<period>:<providerCountryId>:<service>`. */
  sold: Record<string, number>;
}

/** One activation or rent, its record as JSON. */
export interface SimOrderRecord {
  kind: 'activation' | 'rent';
  id: string;
  data: unknown;
}

/** What one save writes: the account, the orders changed, those forgotten; all orders dropped first on a reset. */
export interface SimStateChanges {
  account: SimAccountRecord;
  upserts: SimOrderRecord[];
  gone: Array<Pick<SimOrderRecord, 'kind' | 'id'>>;
  reset: boolean;
}

/**
 * Where a simulator instance's state survives a restart: the host implements it (the product keeps it in its
 * database). The simulator saves the records a request changed before it answers, so an id it issued, a
 * cancel it acknowledged or an SMS it pushed survives a crash of the process, like a real provider's.
 */
export interface SimStateStore {
  /** Undefined when the instance has saved nothing yet. */
  load(): Promise<{ account: SimAccountRecord; orders: SimOrderRecord[] } | undefined>;
  /** Atomically: a save is all of its changes or none. */
  save(changes: SimStateChanges): Promise<void>;
}

export function stateOfRecords(account: SimAccountRecord, orders: readonly SimOrderRecord[]): SimState {
  const { nextActivationId, nextRentId, balanceUsd, sold } = account;
  const state: SimState = {
    version: 1,
    nextActivationId,
    nextRentId,
    balanceUsd,
    activations: {},
    rents: {},
    sold,
  };
  for (const order of orders) {
    if (order.kind === 'activation') state.activations[order.id] = order.data as SimActivation;
    else state.rents[order.id] = order.data as SimRent;
  }
  return state;
}

export function changesOf(state: SimState, changed: ReadonlySet<SimChange>): SimStateChanges {
  const upserts: SimOrderRecord[] = [];
  const gone: SimStateChanges['gone'] = [];
  for (const change of changed) {
    // The account record is written with every save.
    if (change === 'reset' || change === 'account') continue;
    const [kind, id] = change.split(':') as ['activation' | 'rent', string];
    const data = kind === 'activation' ? state.activations[id] : state.rents[id];
    if (data) upserts.push({ kind, id, data });
    else gone.push({ kind, id });
  }
  const { nextActivationId, nextRentId, balanceUsd, sold } = state;
  return {
    account: { nextActivationId, nextRentId, balanceUsd, sold },
    upserts,
    gone,
    reset: changed.has('reset'),
  };
}

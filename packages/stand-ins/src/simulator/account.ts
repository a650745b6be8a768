import type { SimState } from './model';

/** Dollars as whole cents: every price the simulator charges is a whole number of cents. */
export const usdCents = (usd: number) => Math.round(usd * 100);

/** One order of the account: what it was charged and what of it was given back, in cents. */
export interface SimAccountEntry {
  kind: 'activation' | 'rent';
  id: string;
  boughtAtMs: number;
  chargedCents: number;
  returnedCents: number;
}

/** The simulator's account of the key it serves: the balance and every retained order's charge and refund. */
export interface SimAccount {
  balanceCents: number;
  chargedCents: number;
  returnedCents: number;
  orders: SimAccountEntry[];
}

/**
 * What the simulator charged and returned for every order it still keeps (closed activations for two
 * days, rents for a week): an activation or rent is charged its cost, and returned all of it when it was
 * cancelled or refunded at the end of its lifetime; a finished one keeps its charge.
 */
export function accountOf(state: SimState): SimAccount {
  const orders: SimAccountEntry[] = [
    ...Object.values(state.activations).map((activation) => ({
      kind: 'activation' as const,
      ...chargeOf(activation),
    })),
    ...Object.values(state.rents).map((rent) => ({ kind: 'rent' as const, ...chargeOf(rent) })),
  ].sort((left, right) => left.boughtAtMs - right.boughtAtMs);
  return {
    balanceCents: usdCents(state.balanceUsd),
    chargedCents: orders.reduce((sum, entry) => sum + entry.chargedCents, 0),
    returnedCents: orders.reduce((sum, entry) => sum + entry.returnedCents, 0),
    orders,
  };
}

function chargeOf(order: { id: string; createdAtMs: number; costUsd: number; status: string }) {
  const chargedCents = usdCents(order.costUsd);
  return {
    id: order.id,
    boughtAtMs: order.createdAtMs,
    chargedCents,
    returnedCents: order.status === 'cancelled' ? chargedCents : 0,
  };
}

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { simAccounts, simOrders } from '../../../db/schema';
import type { SimActivation, SimRent, SimState } from './engine';

/** What changed: one activation or rent (gone from the state once forgotten), or everything (a reset). */
export type SimChange = `activation:${string}` | `rent:${string}` | 'reset';

/**
 * The simulator's state in the product's database (schema `sim`), one instance by name. The simulator
 * writes the records a request changed before it answers: an id it issued, a cancel it acknowledged or an
 * SMS it pushed survives a crash of the process, like a real provider's.
 */
export interface SimStateStore {
  load(): Promise<SimState | undefined>;
  save(state: SimState, changes: ReadonlySet<SimChange>): Promise<void>;
}

export function createSimStateStore(db: Database, instance: string): SimStateStore {
  return {
    async load() {
      const [account] = await db.select().from(simAccounts).where(eq(simAccounts.instance, instance));
      if (!account) return undefined;
      const state: SimState = {
        version: 1,
        nextActivationId: account.nextActivationId,
        nextRentId: account.nextRentId,
        balanceUsd: account.balanceUsd,
        activations: {},
        rents: {},
        sold: account.sold as Record<string, number>,
      };
      const orders = await db.select().from(simOrders).where(eq(simOrders.instance, instance));
      for (const order of orders) {
        if (order.kind === 'activation') state.activations[order.id] = order.data as SimActivation;
        else state.rents[order.id] = order.data as SimRent;
      }
      return state;
    },

    async save(state, changes) {
      const upserts: (typeof simOrders.$inferInsert)[] = [];
      const gone: { kind: 'activation' | 'rent'; id: string }[] = [];
      for (const change of changes) {
        if (change === 'reset') continue;
        const [kind, id] = change.split(':') as ['activation' | 'rent', string];
        const data = kind === 'activation' ? state.activations[id] : state.rents[id];
        if (data) upserts.push({ instance, kind, id, data });
        else gone.push({ kind, id });
      }
      const account = {
        nextActivationId: state.nextActivationId,
        nextRentId: state.nextRentId,
        balanceUsd: state.balanceUsd,
        sold: state.sold,
      };
      await db.transaction(async (tx) => {
        if (changes.has('reset')) await tx.delete(simOrders).where(eq(simOrders.instance, instance));
        await tx
          .insert(simAccounts)
          .values({ instance, ...account })
          .onConflictDoUpdate({ target: simAccounts.instance, set: account });
        if (upserts.length > 0) {
          await tx
            .insert(simOrders)
            .values(upserts)
            .onConflictDoUpdate({
              target: [simOrders.instance, simOrders.kind, simOrders.id],
              set: { data: sql`excluded.data` },
            });
        }
        for (const kind of ['activation', 'rent'] as const) {
          const ids = gone.filter((order) => order.kind === kind).map((order) => order.id);
          if (ids.length === 0) continue;
          await tx
            .delete(simOrders)
            .where(
              and(eq(simOrders.instance, instance), eq(simOrders.kind, kind), inArray(simOrders.id, ids)),
            );
        }
      });
    },
  };
}

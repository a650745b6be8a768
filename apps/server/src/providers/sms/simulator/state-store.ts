import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
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
      const upserts: Array<{ kind: string; id: string; data: unknown }> = [];
      const gone: Array<{ kind: string; id: string }> = [];
      for (const change of changes) {
        if (change === 'reset') continue;
        const [kind, id] = change.split(':') as ['activation' | 'rent', string];
        const data = kind === 'activation' ? state.activations[id] : state.rents[id];
        if (data) upserts.push({ kind, id, data });
        else gone.push({ kind, id });
      }
      // One statement, atomic by itself: on every purchase a transaction's extra round trips cost more
      // than the writes.
      const write = (executor: Executor) =>
        executor.execute(sql`
          with account as (
            insert into sim.accounts (instance, next_activation_id, next_rent_id, balance_usd, sold)
            values (${instance}, ${state.nextActivationId}, ${state.nextRentId}, ${state.balanceUsd},
              ${JSON.stringify(state.sold)}::jsonb)
            on conflict (instance) do update set next_activation_id = excluded.next_activation_id,
              next_rent_id = excluded.next_rent_id, balance_usd = excluded.balance_usd, sold = excluded.sold
          ), upserted as (
            insert into sim.orders (instance, kind, id, data)
            select ${instance}, kind, id, data
            from jsonb_to_recordset(${JSON.stringify(upserts)}::jsonb) as changed(kind text, id text, data jsonb)
            on conflict (instance, kind, id) do update set data = excluded.data
          )
          delete from sim.orders using jsonb_to_recordset(${JSON.stringify(gone)}::jsonb) as forgotten(kind text, id text)
          where sim.orders.instance = ${instance} and sim.orders.kind = forgotten.kind and sim.orders.id = forgotten.id`);
      if (!changes.has('reset')) {
        await write(db);
        return;
      }
      await db.transaction(async (tx) => {
        await tx.delete(simOrders).where(eq(simOrders.instance, instance));
        await write(tx);
      });
    },
  };
}

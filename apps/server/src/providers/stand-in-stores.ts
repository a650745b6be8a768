import type { SharedTurnPort } from '@simcode/stand-ins';
import { eq, sql } from 'drizzle-orm';
import type { Database, DatabaseHandle, Executor } from '../db/client';
import {
  sandboxInvoices,
  sandboxNowPaymentsRecords,
  sandboxWallets,
  simAccounts,
  simOrders,
} from '../db/schema';

/**
 * Where the built-in SMS simulators and payment sandbox keep their state: the product's database (schemas
 * `sim` and `sandbox`), so what they acknowledged survives a crash and is in every backup. These implement
 * the stores that package declares; the composition root hands them over, and the compiler checks there
 * that they fit.
 */

type SimAccount = Omit<typeof simAccounts.$inferSelect, 'instance' | 'sold'> & {
  sold: Record<string, number>;
};
type SimOrder = Omit<typeof simOrders.$inferSelect, 'instance'>;

/** One simulator instance's state, by its name. */
export function createSimStateStore(db: Database, instance: string) {
  return {
    async load(): Promise<{ account: SimAccount; orders: SimOrder[] } | undefined> {
      const [account] = await db.select().from(simAccounts).where(eq(simAccounts.instance, instance));
      if (!account) return undefined;
      const orders = await db.select().from(simOrders).where(eq(simOrders.instance, instance));
      const { nextActivationId, nextRentId, balanceUsd, sold } = account;
      return {
        account: { nextActivationId, nextRentId, balanceUsd, sold: sold as Record<string, number> },
        orders: orders.map(({ kind, id, data }) => ({ kind, id, data })),
      };
    },

    async save(changes: {
      account: SimAccount;
      upserts: SimOrder[];
      gone: Array<Pick<SimOrder, 'kind' | 'id'>>;
      reset: boolean;
    }): Promise<void> {
      const { account, upserts, gone } = changes;
      // One statement, atomic by itself: on every purchase a transaction's extra round trips cost more
      // than the writes.
      const write = (executor: Executor) =>
        executor.execute(sql`
          with account as (
            insert into sim.accounts (instance, next_activation_id, next_rent_id, balance_usd, sold)
            values (${instance}, ${account.nextActivationId}, ${account.nextRentId}, ${account.balanceUsd},
              ${JSON.stringify(account.sold)}::jsonb)
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
      if (!changes.reset) {
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

type SandboxInvoice = Omit<typeof sandboxInvoices.$inferSelect, 'seq'>;

/** The payment sandbox's invoices. */
export function createSandboxStore(db: Database) {
  return {
    /** In the order they were first stored. */
    async load(): Promise<Array<Pick<SandboxInvoice, 'uuid' | 'data'>>> {
      const rows = await db.select().from(sandboxInvoices).orderBy(sandboxInvoices.seq);
      return rows.map(({ uuid, data }) => ({ uuid, data }));
    },

    async save({ invoices, cleared }: { invoices: SandboxInvoice[]; cleared: boolean }): Promise<void> {
      const upsert = async (executor: Executor) => {
        if (invoices.length === 0) return;
        await executor
          .insert(sandboxInvoices)
          .values(invoices)
          .onConflictDoUpdate({ target: sandboxInvoices.uuid, set: { data: sql`excluded.data` } });
      };
      if (!cleared) {
        await upsert(db);
        return;
      }
      await db.transaction(async (tx) => {
        await tx.delete(sandboxInvoices);
        await upsert(tx);
      });
    },
  };
}

/** The payment sandbox's static wallets. */
export function createSandboxWalletStore(db: Database) {
  return {
    async load(): Promise<Array<{ uuid: string; data: unknown }>> {
      const rows = await db.select().from(sandboxWallets).orderBy(sandboxWallets.seq);
      return rows.map(({ uuid, data }) => ({ uuid, data }));
    },

    async save({
      wallets,
      cleared,
    }: {
      wallets: Array<{ uuid: string; orderId: string; data: unknown }>;
      cleared: boolean;
    }): Promise<void> {
      const upsert = async (executor: Executor) => {
        if (wallets.length === 0) return;
        await executor
          .insert(sandboxWallets)
          .values(wallets)
          .onConflictDoUpdate({ target: sandboxWallets.uuid, set: { data: sql`excluded.data` } });
      };
      if (!cleared) {
        await upsert(db);
        return;
      }
      await db.transaction(async (tx) => {
        await tx.delete(sandboxWallets);
        await upsert(tx);
      });
    },
  };
}

type NowPaymentsRecord = typeof sandboxNowPaymentsRecords.$inferSelect;

/** The NOWPayments sandbox's invoices, payments, tokens and next ids. */
export function createNowPaymentsStore(db: Database) {
  return {
    async load(): Promise<NowPaymentsRecord[]> {
      return db.select().from(sandboxNowPaymentsRecords);
    },

    async save({
      upserts,
      gone,
    }: {
      upserts: NowPaymentsRecord[];
      gone: Array<Pick<NowPaymentsRecord, 'kind' | 'id'>>;
    }): Promise<void> {
      // One statement, atomic by itself, as the simulator's.
      await db.execute(sql`
        with upserted as (
          insert into sandbox.nowpayments_records (kind, id, data)
          select kind, id, data
          from jsonb_to_recordset(${JSON.stringify(upserts)}::jsonb) as changed(kind text, id text, data jsonb)
          on conflict (kind, id) do update set data = excluded.data
        )
        delete from sandbox.nowpayments_records
        using jsonb_to_recordset(${JSON.stringify(gone)}::jsonb) as forgotten(kind text, id text)
        where sandbox.nowpayments_records.kind = forgotten.kind and sandbox.nowpayments_records.id = forgotten.id`);
    },
  };
}

/**
 * Turns among the processes that serve one stand-in from a PostgreSQL database (`stand_in_turns`): a turn
 * is a transaction holding the stand-in's row, whose revision it raises. The stand-in's own writes go
 * through other connections before the turn commits, so the next process to take a turn reads them. An
 * embedded database has a single process: no port.
 */
export function createSharedTurnPort(database: DatabaseHandle, name: string): SharedTurnPort | undefined {
  const { pool } = database;
  if (!pool) return undefined;
  /** The revision this process's copy of the state reflects; null before its first turn or after a failed one. */
  let known: number | null = null;
  return {
    async begin() {
      const client = await pool.connect();
      let revision: number;
      try {
        await client.query('begin');
        const { rows } = await client.query<{ revision: string }>(
          `insert into stand_in_turns (name, revision) values ($1, 1)
           on conflict (name) do update set revision = stand_in_turns.revision + 1
           returning revision`,
          [name],
        );
        revision = Number(rows[0]!.revision);
      } catch (error) {
        client.release(true);
        throw error;
      }
      let ended = false;
      return {
        stale: known === null || known !== revision - 1,
        async end(kept) {
          if (ended) return;
          ended = true;
          known = null;
          try {
            await client.query('commit');
            if (kept) known = revision;
            client.release();
          } catch (error) {
            client.release(true);
            throw error;
          }
        },
      };
    },
    async changedElsewhere() {
      const { rows } = await pool.query<{ revision: string }>(
        'select revision from stand_in_turns where name = $1',
        [name],
      );
      return rows.length === 0 ? known !== null : Number(rows[0]!.revision) !== known;
    },
  };
}

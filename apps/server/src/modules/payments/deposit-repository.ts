import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type DepositAddress, depositAddresses } from '../../db/schema';

export interface AddressKey {
  userId: number;
  provider: string;
  currency: string;
  network: string;
}

/** Users' deposit addresses: one row per user, provider, coin and network (a unique key says so). */
export function createDepositAddressRepository(db: Executor) {
  const byKey = (key: AddressKey) =>
    and(
      eq(depositAddresses.userId, key.userId),
      eq(depositAddresses.provider, key.provider),
      eq(depositAddresses.currency, key.currency),
      eq(depositAddresses.network, key.network),
    );

  return {
    /** The row of this key: inserted with `orderId` by the first of any concurrent callers, read by all. */
    async claim(key: AddressKey, orderId: string, now: Date): Promise<DepositAddress> {
      await db
        .insert(depositAddresses)
        .values({ ...key, orderId, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
      const [row] = await db.select().from(depositAddresses).where(byKey(key));
      return row!;
    },

    /** Records the provider's wallet, only while the row has none: an address never changes once shown. */
    async attachWallet(
      id: number,
      wallet: { walletUuid: string; address: string; paymentUrl: string | null; now: Date },
    ): Promise<DepositAddress> {
      await db
        .update(depositAddresses)
        .set({
          walletUuid: wallet.walletUuid,
          address: wallet.address,
          paymentUrl: wallet.paymentUrl,
          updatedAt: wallet.now,
        })
        .where(and(eq(depositAddresses.id, id), isNull(depositAddresses.walletUuid)));
      const [row] = await db.select().from(depositAddresses).where(eq(depositAddresses.id, id));
      return row!;
    },

    async findByOrderId(orderId: string): Promise<DepositAddress | undefined> {
      const [row] = await db.select().from(depositAddresses).where(eq(depositAddresses.orderId, orderId));
      return row;
    },

    async findById(id: number): Promise<DepositAddress | undefined> {
      const [row] = await db.select().from(depositAddresses).where(eq(depositAddresses.id, id));
      return row;
    },

    /** The user's addresses that exist at their provider, oldest first. */
    listForUser: (userId: number) =>
      db
        .select()
        .from(depositAddresses)
        .where(eq(depositAddresses.userId, userId))
        .orderBy(asc(depositAddresses.id))
        .then((rows) => rows.filter((row) => row.address !== null)),
  };
}

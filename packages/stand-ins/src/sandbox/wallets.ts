import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ChangeBatcher } from '../change-batcher';
import type { StandInLogger } from '../logger';
import { fakeAddress, fakeTransfer, stableUuid } from './invoice-views';
import type { SandboxInvoice } from './state';

/**
 * Cryptomus's static wallets in the sandbox (protocols.md D.5, docs/payment-protocols.md S): a permanent
 * address per `order_id`, coin and network. Every deposit to one becomes a payment of `type: wallet`,
 * kept with the invoices (found by its uuid, sharing the wallet's order id) and announced by a webhook.
 */

const walletSchema = z.object({
  /** The wallet on its network (`uuid` in the answer, `wallet_address_uuid` in deposit webhooks). */
  uuid: z.string(),
  /** The merchant's wallet of this coin (`wallet_uuid` in the answer). */
  walletUuid: z.string(),
  orderId: z.string(),
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  url: z.string(),
  urlCallback: z.string().nullable(),
  createdAtMs: z.number(),
});

export type SandboxWallet = z.infer<typeof walletSchema>;

/** Where the wallets survive a restart (the product's database), as the invoices do. */
export interface SandboxWalletStore {
  load(): Promise<Array<{ uuid: string; data: unknown }>>;
  /** Writes the changed wallets (insert or replace), after removing every wallet when `cleared`. */
  save(changes: {
    wallets: Array<{ uuid: string; orderId: string; data: unknown }>;
    cleared: boolean;
  }): Promise<void>;
}

const CLEARED = Symbol('cleared');

/** The wallets by uuid, order id and address, in memory and in the store when one is given. */
export class WalletStore {
  readonly #byUuid = new Map<string, SandboxWallet>();
  readonly #byOrderId = new Map<string, SandboxWallet>();
  readonly #byAddress = new Map<string, SandboxWallet>();
  readonly #changes: ChangeBatcher<string | typeof CLEARED>;

  constructor(
    private readonly store: SandboxWalletStore | undefined,
    private readonly logger: StandInLogger,
  ) {
    this.#changes = new ChangeBatcher(async (changed) => {
      const wallets = [...changed]
        .map((uuid) => (typeof uuid === 'string' ? this.#byUuid.get(uuid) : undefined))
        .filter((wallet) => wallet !== undefined)
        .map((wallet) => ({ uuid: wallet.uuid, orderId: wallet.orderId, data: wallet }));
      await this.store!.save({ wallets, cleared: changed.has(CLEARED) });
    });
  }

  get = (uuid: string) => this.#byUuid.get(uuid);
  getByOrderId = (orderId: string) => this.#byOrderId.get(orderId);
  getByAddress = (address: string) => this.#byAddress.get(address);

  add(wallet: SandboxWallet): void {
    this.#index(wallet);
    if (this.store) this.#changes.mark(wallet.uuid);
  }

  clear(): number {
    const count = this.#byUuid.size;
    this.#byUuid.clear();
    this.#byOrderId.clear();
    this.#byAddress.clear();
    if (this.store) this.#changes.mark(CLEARED);
    return count;
  }

  save = () => this.#changes.save();

  /** Replaces what is in memory with what is stored. */
  async load(): Promise<void> {
    if (!this.store) return;
    const rows = await this.store.load();
    this.#byUuid.clear();
    this.#byOrderId.clear();
    this.#byAddress.clear();
    for (const row of rows) {
      const parsed = walletSchema.safeParse(row.data);
      if (parsed.success) this.#index(parsed.data);
      else this.logger.warn({ uuid: row.uuid }, 'payment sandbox wallet unreadable, skipped');
    }
  }

  #index(wallet: SandboxWallet): void {
    this.#byUuid.set(wallet.uuid, wallet);
    this.#byOrderId.set(wallet.orderId, wallet);
    this.#byAddress.set(wallet.address, wallet);
  }
}

/** A new wallet; the merchant's wallet uuid is stable per coin, as Cryptomus keeps one per currency. */
export function newWallet(
  input: { currency: string; network: string; orderId: string; urlCallback: string | null },
  merchantId: string,
  walletUrl: (uuid: string) => string,
  nowMs: number,
): SandboxWallet {
  const uuid = randomUUID();
  return {
    uuid,
    walletUuid: stableUuid(`${merchantId}:merchant:${input.currency}`),
    orderId: input.orderId,
    currency: input.currency,
    network: input.network,
    address: fakeAddress(input.network),
    url: walletUrl(uuid),
    urlCallback: input.urlCallback,
    createdAtMs: nowMs,
  };
}

/** The answer of `v1/wallet` (and of the control API for a wallet). */
export function walletObject(wallet: SandboxWallet): Record<string, unknown> {
  return {
    wallet_uuid: wallet.walletUuid,
    uuid: wallet.uuid,
    address: wallet.address,
    network: wallet.network,
    currency: wallet.currency,
    url: wallet.url,
  };
}

/** Deposits never expire: the money is already on the chain. */
const NEVER_MS = Number.MAX_SAFE_INTEGER;

/** A deposit of `amountUnits` of the wallet's coin, as a payment record in its first status. */
export function newDeposit(wallet: SandboxWallet, amountUnits: number, nowMs: number): SandboxInvoice {
  const transfer = fakeTransfer(wallet, amountUnits);
  return {
    uuid: randomUUID(),
    type: 'wallet',
    walletUuid: wallet.uuid,
    orderId: wallet.orderId,
    amountUnits,
    currency: wallet.currency,
    payerCurrency: wallet.currency,
    network: wallet.network,
    status: 'check',
    isFinal: false,
    url: wallet.url,
    urlCallback: wallet.urlCallback,
    urlReturn: null,
    urlSuccess: null,
    additionalData: null,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    expiresAtMs: NEVER_MS,
    payment: { ...transfer, address: wallet.address },
    resendCount: 0,
    webhook: null,
  };
}

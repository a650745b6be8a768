import { z } from 'zod';
import { ChangeBatcher } from '../change-batcher';
import type { StandInLogger } from '../logger';

const webhookDeliverySchema = z.object({
  /** Identifies this delivery, so a retry timer of a superseded one stops. */
  id: z.string(),
  /** The exact signed body, so a resend repeats it byte for byte. */
  body: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  delivered: z.boolean(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
});

const invoiceSchema = z.object({
  uuid: z.string(),
  /** `wallet` for a deposit to a static wallet: it shares the wallet's order id and is found by uuid only. */
  type: z.enum(['payment', 'wallet']).default('payment'),
  /** The static wallet a deposit arrived at. */
  walletUuid: z.string().nullable().default(null),
  orderId: z.string(),
  /** In steps of `currency` (currencies.ts): cents for USD. */
  amountUnits: z.number().int(),
  currency: z.string(),
  /** The coin the payer must pay in, when the invoice fixes one (a crypto invoice, or `to_currency`). */
  payerCurrency: z.string().nullable().default(null),
  /** The network the payer must pay on, when the invoice names one. */
  network: z.string().nullable().default(null),
  status: z.string(),
  isFinal: z.boolean(),
  url: z.string(),
  urlCallback: z.string().nullable(),
  urlReturn: z.string().nullable(),
  urlSuccess: z.string().nullable(),
  additionalData: z.string().nullable(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
  expiresAtMs: z.number(),
  /** Set once money "arrived": what, how and from where. */
  payment: z
    .object({
      /** In steps of `payerCurrency`. */
      amountUnits: z.number().int(),
      payerCurrency: z.string(),
      network: z.string(),
      address: z.string(),
      from: z.string(),
      txid: z.string(),
    })
    .nullable(),
  /** Resends through the merchant API (limited to 10 like Cryptomus); control resends do not count. */
  resendCount: z.number().int(),
  /** The latest webhook; a newer status change replaces it. */
  webhook: webhookDeliverySchema.nullable(),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Invoices stored before amounts were counted per currency held `amountCents`: US cents, and cents of the
 * stablecoin paid, which are still the steps those currencies are counted in.
 */
function fromCentsRecord(raw: unknown): unknown {
  if (!isRecord(raw) || !('amountCents' in raw)) return raw;
  const { amountCents, ...invoice } = raw;
  if (!isRecord(invoice.payment) || !('amountCents' in invoice.payment)) {
    return { ...invoice, amountUnits: amountCents };
  }
  const { amountCents: paidCents, ...payment } = invoice.payment;
  return { ...invoice, amountUnits: amountCents, payment: { ...payment, amountUnits: paidCents } };
}

const storedInvoiceSchema = z.preprocess(fromCentsRecord, invoiceSchema);

export type SandboxInvoice = z.infer<typeof invoiceSchema>;
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** One invoice as a store keeps it: its record as JSON, found by uuid and order id. */
export interface SandboxInvoiceRecord {
  uuid: string;
  orderId: string;
  data: unknown;
}

/**
 * Where the sandbox's invoices survive a restart: the host implements it (the product keeps them in its
 * database).
 */
export interface SandboxStore {
  /** Every stored invoice, in the order they were first stored. */
  load(): Promise<Array<Pick<SandboxInvoiceRecord, 'uuid' | 'data'>>>;
  /** Writes the changed invoices, after removing every invoice when `cleared`; atomically. */
  save(changes: { invoices: SandboxInvoiceRecord[]; cleared: boolean }): Promise<void>;
}

/** A change to save: one invoice by uuid, or every invoice gone (the control API's reset). */
type InvoiceChange = string | typeof CLEARED;
const CLEARED = Symbol('cleared');

/**
 * The sandbox's invoices, indexed by uuid and order id, kept in memory and in a store (the product's
 * database) when one is given. Whatever the sandbox acknowledges (an invoice created, a payment
 * made, a webhook due) is stored before it answers or sends: `save()` resolves once every change made
 * until then is in the database.
 */
export class InvoiceStore {
  readonly #byUuid = new Map<string, SandboxInvoice>();
  readonly #uuidByOrderId = new Map<string, string>();
  readonly #changes: ChangeBatcher<InvoiceChange>;

  constructor(
    private readonly store: SandboxStore | undefined,
    private readonly logger: StandInLogger,
  ) {
    this.#changes = new ChangeBatcher((changed) => this.#write(changed));
  }

  get(uuid: string): SandboxInvoice | undefined {
    return this.#byUuid.get(uuid);
  }

  getByOrderId(orderId: string): SandboxInvoice | undefined {
    const uuid = this.#uuidByOrderId.get(orderId);
    return uuid === undefined ? undefined : this.#byUuid.get(uuid);
  }

  all(): IterableIterator<SandboxInvoice> {
    return this.#byUuid.values();
  }

  add(invoice: SandboxInvoice): void {
    this.#index(invoice);
    this.changed(invoice.uuid);
  }

  /** An invoice is found by its order id too; a wallet's deposits, which share the wallet's, only by uuid. */
  #index(invoice: SandboxInvoice): void {
    this.#byUuid.set(invoice.uuid, invoice);
    if (invoice.type === 'payment') this.#uuidByOrderId.set(invoice.orderId, invoice.uuid);
  }

  /** Returns how many invoices were removed. */
  clear(): number {
    const count = this.#byUuid.size;
    this.#byUuid.clear();
    this.#uuidByOrderId.clear();
    if (this.store) this.#changes.mark(CLEARED);
    return count;
  }

  /** Call after mutating an invoice in place. */
  changed(uuid: string): void {
    if (this.store) this.#changes.mark(uuid);
  }

  /** Resolves once every change made so far is stored. */
  save(): Promise<void> {
    return this.#changes.save();
  }

  /** Replaces what is in memory with what is stored. */
  async load(): Promise<void> {
    if (!this.store) return;
    const rows = await this.store.load();
    this.#byUuid.clear();
    this.#uuidByOrderId.clear();
    for (const row of rows) {
      const parsed = storedInvoiceSchema.safeParse(row.data);
      if (!parsed.success) {
        // A sandbox must not refuse to start over one bad demo record.
        this.logger.warn(
          { uuid: row.uuid, err: parsed.error },
          'payment sandbox invoice unreadable, skipped',
        );
        continue;
      }
      this.#index(parsed.data);
    }
  }

  async #write(changed: ReadonlySet<InvoiceChange>): Promise<void> {
    const invoices = [...changed]
      .map((uuid) => (typeof uuid === 'string' ? this.#byUuid.get(uuid) : undefined))
      .filter((invoice) => invoice !== undefined)
      .map((invoice) => ({ uuid: invoice.uuid, orderId: invoice.orderId, data: invoice }));
    await this.store!.save({ invoices, cleared: changed.has(CLEARED) });
  }
}

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

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
  orderId: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
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
      amountCents: z.number().int(),
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

export type SandboxInvoice = z.infer<typeof invoiceSchema>;
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

const stateFileSchema = z.object({ version: z.literal(1), invoices: z.array(invoiceSchema) });

/** Writes settle for this long, so a burst of changes costs one write. */
const SAVE_DEBOUNCE_MS = 200;

export interface SandboxLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export const silentLogger: SandboxLogger = { info: () => {}, warn: () => {} };

/**
 * The sandbox's invoices, indexed by uuid and order id, kept in memory and mirrored to a JSON file when
 * one is configured: debounced, written to a temporary file and renamed over the old one, so a crash
 * leaves either the previous or the new state, never half of one.
 */
export class InvoiceStore {
  readonly #byUuid = new Map<string, SandboxInvoice>();
  readonly #uuidByOrderId = new Map<string, string>();
  #saveTimer: NodeJS.Timeout | null = null;
  #saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly stateFile: string | undefined,
    private readonly logger: SandboxLogger,
  ) {}

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
    this.#byUuid.set(invoice.uuid, invoice);
    this.#uuidByOrderId.set(invoice.orderId, invoice.uuid);
    this.changed();
  }

  /** Returns how many invoices were removed. */
  clear(): number {
    const count = this.#byUuid.size;
    this.#byUuid.clear();
    this.#uuidByOrderId.clear();
    this.changed();
    return count;
  }

  /** Call after mutating an invoice in place. */
  changed(): void {
    if (!this.stateFile || this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = null;
      this.#queueSave();
    }, SAVE_DEBOUNCE_MS);
  }

  async load(): Promise<void> {
    if (!this.stateFile) return;
    let text: string;
    try {
      text = await readFile(this.stateFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let parsed: z.infer<typeof stateFileSchema>;
    try {
      parsed = stateFileSchema.parse(JSON.parse(text));
    } catch (error) {
      // A sandbox must not refuse to start over its own demo data; the bad file is overwritten later.
      this.logger.warn(
        { stateFile: this.stateFile, err: error },
        'payment sandbox state unreadable, starting empty',
      );
      return;
    }
    for (const invoice of parsed.invoices) {
      this.#byUuid.set(invoice.uuid, invoice);
      this.#uuidByOrderId.set(invoice.orderId, invoice.uuid);
    }
  }

  /** Writes a pending change now and waits for every write to finish. */
  async flush(): Promise<void> {
    if (this.#saveTimer) {
      clearTimeout(this.#saveTimer);
      this.#saveTimer = null;
      this.#queueSave();
    }
    await this.#saving;
  }

  #queueSave(): void {
    const file = this.stateFile!;
    // The snapshot is taken when the write starts, so it holds every change made until then.
    this.#saving = this.#saving.then(async () => {
      const snapshot = JSON.stringify({ version: 1, invoices: [...this.#byUuid.values()] });
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(temporary, snapshot, { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        this.logger.warn({ stateFile: file, err: error }, 'payment sandbox state not saved');
      }
    });
  }
}

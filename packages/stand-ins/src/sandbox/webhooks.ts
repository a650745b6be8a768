import { randomUUID } from 'node:crypto';
import { centsToDecimal, encodeSignedWebhook } from '@simcode/cryptomus-protocol';
import type { StandInLogger } from '../logger';
import { commissionUnits, convert, currency, formatAmount, USD } from './currencies';
import type { InvoiceStore, SandboxInvoice } from './state';

const DELIVERY_TIMEOUT_MS = 10_000;

/** Waits between the failed attempts of one webhook: five attempts in all over about six minutes. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000];

const NOTHING_PAID = {
  payment_amount: null,
  payment_amount_usd: null,
  merchant_amount: null,
  commission: null,
};

/** The amounts of a payment, in the coin that arrived (what Cryptomus keeps and credits is counted in it). */
function paidAmounts(payment: NonNullable<SandboxInvoice['payment']>) {
  const coin = currency(payment.payerCurrency);
  const commission = commissionUnits(payment.amountUnits);
  return {
    payment_amount: formatAmount(payment.amountUnits, coin),
    payment_amount_usd: centsToDecimal(convert(payment.amountUnits, coin, USD)),
    merchant_amount: formatAmount(payment.amountUnits - commission, coin),
    commission: formatAmount(commission, coin),
  };
}

/**
 * The webhook fields of protocols.md D.7 in Cryptomus order; a deposit to a static wallet is `type: wallet`
 * with the wallet's order id and uuid, its amount and currency the coin that arrived. `txid` is absent until money arrived, as
 * Cryptomus omits it for unpaid invoices; `sign` is appended last when the body is encoded.
 */
export function webhookPayload(invoice: SandboxInvoice): Record<string, unknown> {
  const paid = invoice.payment;
  return {
    type: invoice.type,
    uuid: invoice.uuid,
    order_id: invoice.orderId,
    amount: formatAmount(invoice.amountUnits, currency(invoice.currency)),
    ...(paid ? paidAmounts(paid) : NOTHING_PAID),
    is_final: invoice.isFinal,
    status: invoice.status,
    from: paid?.from ?? null,
    wallet_address_uuid: invoice.walletUuid,
    network: paid?.network ?? null,
    currency: invoice.currency,
    payer_currency: paid?.payerCurrency ?? null,
    additional_data: invoice.additionalData,
    ...(paid ? { txid: paid.txid } : {}),
  };
}

/** Posts a body once; the answer's status, or the reason there was none. */
export async function postWebhook(
  url: string,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number | null; error: string | null }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
    });
    await response.body?.cancel();
    return { status: response.status, error: null };
  } catch (error) {
    return { status: null, error: String((error as { cause?: unknown })?.cause ?? error) };
  }
}

export interface WebhookSenderOptions {
  store: InvoiceStore;
  apiKey: string;
  retryDelaysMs: number[];
  logger: StandInLogger;
  /** Runs a change of the invoices in the sandbox's turn (see SharedTurns), stored when it resolves. */
  inTurn<T>(work: () => T): Promise<T>;
}

/**
 * Delivers each invoice's latest webhook in the background: a non-2xx answer or no answer is retried
 * after the configured delays. A newer status change replaces the pending delivery of an older one,
 * because the receiver needs the invoice's state, not its history.
 */
export class WebhookSender {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  #stopping = new AbortController();

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Signs the invoice's current state and starts delivering it. */
  sendCurrentState(invoice: SandboxInvoice): void {
    if (!invoice.urlCallback) return;
    invoice.webhook = {
      id: randomUUID(),
      body: encodeSignedWebhook(webhookPayload(invoice), this.options.apiKey),
      status: invoice.status,
      attempts: 0,
      delivered: false,
      lastResponseStatus: null,
      lastError: null,
    };
    this.options.store.changed(invoice.uuid);
    this.#startAttempt(invoice.uuid);
  }

  /** Delivers the invoice's latest webhook again, from a fresh retry budget. */
  resend(invoice: SandboxInvoice): void {
    if (!invoice.webhook) {
      this.sendCurrentState(invoice);
      return;
    }
    invoice.webhook = { ...invoice.webhook, id: randomUUID(), attempts: 0, delivered: false };
    this.options.store.changed(invoice.uuid);
    this.#startAttempt(invoice.uuid);
  }

  /** Posts an invoice's state once, neither stored nor retried (the test-webhook endpoint). */
  sendOnce(invoice: SandboxInvoice): void {
    if (!invoice.urlCallback) return;
    const body = encodeSignedWebhook(webhookPayload(invoice), this.options.apiKey);
    this.#track(postWebhook(invoice.urlCallback, body, this.#stopping.signal).then(() => {}));
  }

  /** Picks up deliveries a previous run left unfinished; once the receiver can listen (after app.listen). */
  resumePending(): void {
    for (const invoice of this.options.store.all()) {
      const webhook = invoice.webhook;
      if (webhook && !webhook.delivered && webhook.attempts <= this.options.retryDelaysMs.length) {
        this.#startAttempt(invoice.uuid);
      }
    }
  }

  /** Forgets every pending retry (the invoices are gone or will be re-read). */
  cancelAll(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  /** Cancels retries, aborts deliveries in flight and waits for them to settle. */
  async stop(): Promise<void> {
    this.cancelAll();
    this.#stopping.abort();
    await Promise.all(this.#inFlight);
    this.#stopping = new AbortController();
  }

  #startAttempt(uuid: string): void {
    clearTimeout(this.#timers.get(uuid));
    this.#timers.delete(uuid);
    const id = this.options.store.get(uuid)?.webhook?.id;
    if (id === undefined) return;
    this.#track(this.#attempt(uuid, id));
  }

  #track(delivery: Promise<void>): void {
    const tracked = delivery.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #attempt(uuid: string, deliveryId: string): Promise<void> {
    // The change this webhook announces is stored first: a receiver never hears of a payment that a crash
    // could make the sandbox forget.
    try {
      await this.options.store.save();
    } catch (error) {
      this.options.logger.warn({ uuid, err: error }, 'payment sandbox state not saved; webhook held back');
      this.#timers.set(
        uuid,
        setTimeout(() => this.#startAttempt(uuid), this.options.retryDelaysMs[0]).unref(),
      );
      return;
    }
    const invoice = this.options.store.get(uuid);
    const sent = invoice?.webhook;
    if (!invoice?.urlCallback || sent?.id !== deliveryId || sent.delivered) return;
    const signal = this.#stopping.signal;
    const outcome = await postWebhook(invoice.urlCallback, sent.body, signal);
    let recorded = false;
    const record = () => {
      recorded = true;
      // The invoice as it is now: another process's turn may have replaced this process's copy.
      const webhook = this.options.store.get(uuid)?.webhook;
      if (webhook?.id !== deliveryId) return undefined;
      webhook.attempts += 1;
      webhook.lastResponseStatus = outcome.status;
      webhook.lastError = outcome.error;
      webhook.delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      this.options.store.changed(uuid);
      return webhook;
    };
    // Bookkeeping, not an acknowledgement: a record that could not be stored means one more delivery.
    const webhook = await this.options.inTurn(record).catch(() => {
      const current = this.options.store.get(uuid)?.webhook;
      if (!recorded) return record();
      return current?.id === deliveryId ? current : undefined;
    });
    if (!webhook || webhook.delivered || signal.aborted) return;
    const delayMs = this.options.retryDelaysMs[webhook.attempts - 1];
    const details = {
      uuid,
      webhookStatus: webhook.status,
      attempts: webhook.attempts,
      responseStatus: outcome.status,
      error: outcome.error,
    };
    if (delayMs === undefined) {
      this.options.logger.warn(details, 'payment sandbox gave up delivering a webhook');
      return;
    }
    this.options.logger.info({ ...details, retryInMs: delayMs }, 'payment sandbox webhook failed, retrying');
    // A pending retry must not keep the process alive: the stored invoice lets the next start resume it.
    this.#timers.set(uuid, setTimeout(() => this.#startAttempt(uuid), delayMs).unref());
  }
}

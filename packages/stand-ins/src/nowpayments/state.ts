import { randomBytes, randomInt } from 'node:crypto';
import { isFinalStatus, SIGNATURE_HEADER, signIpn } from '@simcode/nowpayments-protocol';
import { ChangeBatcher } from '../change-batcher';
import type { Clock } from '../clock';
import type { StandInLogger } from '../logger';
import {
  type Coin,
  centsToUnits,
  coinByCode,
  fakeAddress,
  type Invoice,
  IPN_TIMEOUT_MS,
  type Payment,
} from './model';
import { paymentObject } from './views';

/** One stored record: an invoice, a payment (its invoice by id, its coin by code), a token, or the ids. */
export interface NowPaymentsRecord {
  kind: 'invoice' | 'payment' | 'token' | 'ids';
  id: string;
  data: unknown;
}

/**
 * Where the sandbox's invoices, payments, tokens and next ids survive a restart: the host implements it
 * (the product keeps them in its database).
 */
export interface NowPaymentsStore {
  load(): Promise<NowPaymentsRecord[]>;
  /** Atomically. */
  save(changes: {
    upserts: NowPaymentsRecord[];
    gone: Array<Pick<NowPaymentsRecord, 'kind' | 'id'>>;
  }): Promise<void>;
}

type Key = `${NowPaymentsRecord['kind']}:${string}`;
const IDS: Key = 'ids:next';

/**
 * The sandbox's state: invoices, payments, dashboard tokens and the fault switch, and what moves a payment
 * on (its status, its IPN with retries, its expiry). The routes read and change it; nothing else does.
 * With a store, every change is written there before the answer that acknowledges it (`save()`).
 */
export function createNowPaymentsState(options: {
  clock: Clock;
  logger: StandInLogger;
  ipnSecret: string;
  lifetimeMs: number;
  retryDelaysMs: number[];
  store?: NowPaymentsStore;
}) {
  const { clock, logger, lifetimeMs, retryDelaysMs, store } = options;
  const invoices = new Map<string, Invoice>();
  const payments = new Map<number, Payment>();
  const tokens = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  // Ids look like a busy provider's, and differ between runs as real ones would.
  const ids = {
    invoice: 5_000_000_000 + randomInt(1_000_000),
    payment: 4_000_000_000 + randomInt(1_000_000),
  };
  const nowMs = () => clock.now().getTime();
  const changes = new ChangeBatcher<Key>((changed) => write(changed));
  const changed = (key: Key) => {
    if (store) changes.mark(key);
  };

  function record(key: Key): NowPaymentsRecord | undefined {
    const [kind, id] = key.split(/:(.*)/s) as [NowPaymentsRecord['kind'], string];
    switch (kind) {
      case 'ids':
        return { kind, id, data: ids };
      case 'invoice': {
        const invoice = invoices.get(id);
        return invoice && { kind, id, data: invoice };
      }
      case 'payment': {
        const payment = payments.get(Number(id));
        return (
          payment && { kind, id, data: { ...payment, invoice: payment.invoice.id, coin: payment.coin.code } }
        );
      }
      case 'token': {
        const expiresAtMs = tokens.get(id);
        return expiresAtMs === undefined ? undefined : { kind, id, data: { expiresAtMs } };
      }
    }
  }

  async function write(keys: ReadonlySet<Key>): Promise<void> {
    const upserts: NowPaymentsRecord[] = [];
    const gone: Array<Pick<NowPaymentsRecord, 'kind' | 'id'>> = [];
    for (const key of keys) {
      const found = record(key);
      if (found) upserts.push(found);
      else {
        const [kind, id] = key.split(/:(.*)/s) as [NowPaymentsRecord['kind'], string];
        gone.push({ kind, id });
      }
    }
    await store!.save({ upserts, gone });
  }

  /** Replaces what is in memory with what is stored. */
  async function load(): Promise<void> {
    if (!store) return;
    const records = await store.load();
    invoices.clear();
    payments.clear();
    tokens.clear();
    for (const { kind, id, data } of records) {
      if (kind === 'ids') Object.assign(ids, data);
      else if (kind === 'invoice') invoices.set(id, data as Invoice);
      else if (kind === 'token') tokens.set(id, (data as { expiresAtMs: number }).expiresAtMs);
    }
    for (const { kind, data } of records) {
      if (kind !== 'payment') continue;
      const stored = data as Omit<Payment, 'invoice' | 'coin'> & { invoice: string; coin: string };
      const invoice = invoices.get(stored.invoice);
      const coin = coinByCode(stored.coin);
      if (invoice && coin) payments.set(stored.paymentId, { ...stored, invoice, coin });
      else logger.warn({ paymentId: stored.paymentId }, 'nowpayments sandbox payment unreadable, skipped');
    }
  }

  /** Posts the payment's IPN, retrying refused deliveries on the configured schedule. */
  function sendIpn(payment: Payment, attempt = 0): void {
    const url = payment.invoice.ipnCallbackUrl;
    if (!url) return;
    const payload = paymentObject(payment);
    const body = JSON.stringify(payload);
    const retry = () => {
      const delayMs = retryDelaysMs[attempt];
      if (delayMs === undefined) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        sendIpn(payment, attempt + 1);
      }, delayMs);
      timer.unref();
      timers.add(timer);
    };
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signIpn(payload, options.ipnSecret),
      },
      body,
      signal: AbortSignal.timeout(IPN_TIMEOUT_MS),
    })
      .then(async (response) => {
        await response.body?.cancel();
        logger.info(
          { paymentId: payment.paymentId, status: response.status },
          'nowpayments sandbox IPN sent',
        );
        if (response.status >= 300) retry();
      })
      .catch((error: unknown) => {
        logger.warn({ paymentId: payment.paymentId, err: String(error) }, 'nowpayments sandbox IPN failed');
        retry();
      });
  }

  /** Moves a payment on and announces it, unless a test wants the IPN lost (`announce: false`). */
  function setStatus(payment: Payment, status: string, paidUnits?: number, announce = true): void {
    payment.status = status;
    if (paidUnits !== undefined) {
      payment.paidUnits = paidUnits;
      payment.payinHash ??= randomBytes(32).toString('hex');
    }
    payment.updatedAtMs = nowMs();
    changed(`payment:${payment.paymentId}`);
    logger.info({ paymentId: payment.paymentId, status }, 'nowpayments sandbox payment changed');
    if (announce) sendIpn(payment);
  }

  function expireDue(): void {
    const now = nowMs();
    for (const payment of payments.values()) {
      if (payment.status === 'waiting' && payment.createdAtMs + lifetimeMs <= now)
        setStatus(payment, 'expired');
    }
  }

  /** The payer picks a coin on the invoice page: NOWPayments opens a payment for it. */
  function openPayment(invoice: Invoice, coin: Coin): Payment {
    const existing = [...payments.values()].find(
      (payment) => payment.invoice === invoice && payment.coin === coin && !isFinalStatus(payment.status),
    );
    if (existing) return existing;
    const now = nowMs();
    const payment: Payment = {
      paymentId: ids.payment++,
      invoice,
      status: 'waiting',
      coin,
      payAddress: fakeAddress(coin),
      payUnits: centsToUnits(invoice.priceCents, coin),
      paidUnits: 0,
      payinHash: null,
      createdAtMs: now,
      updatedAtMs: now,
    };
    payments.set(payment.paymentId, payment);
    changed(`payment:${payment.paymentId}`);
    changed(IDS);
    return payment;
  }

  function addInvoice(invoice: Omit<Invoice, 'id'>): Invoice {
    const added = { ...invoice, id: String(ids.invoice++) };
    invoices.set(added.id, added);
    changed(`invoice:${added.id}`);
    changed(IDS);
    return added;
  }

  /** A dashboard token until `expiresAtMs`; expired ones are forgotten. */
  function addToken(token: string, expiresAtMs: number): void {
    for (const [held, heldUntilMs] of tokens) {
      if (heldUntilMs <= nowMs()) {
        tokens.delete(held);
        changed(`token:${held}`);
      }
    }
    tokens.set(token, expiresAtMs);
    changed(`token:${token}`);
  }

  return {
    invoices,
    payments,
    tokens,
    /** While true, every merchant call answers 503 (the control API's fault injection). */
    faulty: false,
    nowMs,
    addInvoice,
    addToken,
    load,
    /** Resolves once every change made so far is stored. */
    save: () => changes.save(),
    sendIpn,
    setStatus,
    expireDue,
    openPayment,
    /** Stops IPN retries. */
    stop(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type NowPaymentsState = ReturnType<typeof createNowPaymentsState>;

/** What a payment of `status` received when a test does not say: exact, half, or 10% more. */
export function defaultPaidUnits(payment: Payment, status: string): number | undefined {
  if (status === 'partially_paid') return Math.floor(payment.payUnits / 2);
  if (status === 'finished' && payment.paidUnits === 0) return payment.payUnits;
  if (['confirming', 'confirmed', 'sending'].includes(status) && payment.paidUnits === 0)
    return payment.payUnits;
  return undefined;
}

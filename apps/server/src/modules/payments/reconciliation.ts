import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { TopupService } from './service';

/** The job wakes up this often... */
export const RECONCILIATION_INTERVAL_MS = 30_000;
/** ...and asks the provider about at most this many invoices: 10 a minute, whatever the backlog. */
export const RECONCILIATION_BATCH_SIZE = 5;
/** A pending invoice is asked about again at most this often (a fresh one first after this long). */
export const RECHECK_AFTER_MS = 60_000;
/** The first run after a start asks about this many invoices not checked since: a crash may have hidden payments. */
export const STARTUP_BATCH_SIZE = 50;

interface ReconciliationDeps {
  topups: TopupService;
  clock: Clock;
  log: FastifyBaseLogger;
  /** When this process started: its first run checks the invoices not checked since, a larger batch. */
  startedAt?: Date;
}

/**
 * The safety net behind the payment webhooks, which can get lost: asks the provider about pending
 * invoices, least recently checked first, a few per run, and applies what it says. Paid ones are
 * credited, closed ones ended, and ones whose lifetime is over expired.
 */
export function createPaymentReconciliation({ topups, clock, log, startedAt }: ReconciliationDeps) {
  // Set until the first run is over.
  let startup = startedAt;
  return {
    async run(): Promise<void> {
      const recheckBefore = new Date(clock.now().getTime() - RECHECK_AFTER_MS);
      const checkedBefore = startup && startup > recheckBefore ? startup : recheckBefore;
      const due = await topups.dueForCheck(
        checkedBefore,
        startup ? STARTUP_BATCH_SIZE : RECONCILIATION_BATCH_SIZE,
      );
      startup = undefined;
      for (const payment of due) {
        try {
          await topups.reconcile(payment);
        } catch (error) {
          // One bad payment must not hold up the others; it comes round again later.
          log.error({ err: error, orderId: payment.orderId }, 'could not reconcile a payment');
        }
      }
    },
  };
}

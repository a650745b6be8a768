import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createMailQueue } from './queue';
import { type MailPayloads, renderMail } from './templates';
import type { MailTransport } from './transport';

/** Attempts of one message before it is given up (about a day of backing off). */
export const MAIL_MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 4 * 60 * 60_000;
/** How long a claimed message is left to its sender before another run may take it again. */
const SEND_LEASE_MS = 5 * 60_000;
const BATCH_SIZE = 20;

/** 30 s, 1 min, 2 min, … doubling up to 4 hours. */
export function retryDelayMs(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1));
}

interface MailDeliveryDeps {
  db: Executor;
  transport: MailTransport;
  clock: Clock;
  log: FastifyBaseLogger;
  appName: string;
  publicUrl: string;
}

/** The job that sends queued mail: never inside a request, with retries and backoff when the server fails. */
export function createMailDelivery({ db, transport, clock, log, appName, publicUrl }: MailDeliveryDeps) {
  const queue = createMailQueue(db);
  return {
    /** Sends what is due; returns how many went out. */
    async run(): Promise<number> {
      const now = clock.now();
      const batch = await queue.claimDue(now, new Date(now.getTime() + SEND_LEASE_MS), BATCH_SIZE);
      let sent = 0;
      for (const row of batch) {
        try {
          if (!row.address) throw new Error('no address to send to');
          const rendered = renderMail(
            row.template,
            row.payload as unknown as MailPayloads[typeof row.template],
            { appName, publicUrl, language: row.language },
          );
          await transport.send({ to: row.address, ...rendered });
          await queue.markSent(row.id, clock.now());
          sent += 1;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const giveUp = row.attempts >= MAIL_MAX_ATTEMPTS;
          const retryAt = giveUp ? null : new Date(clock.now().getTime() + retryDelayMs(row.attempts));
          await queue.markFailed(row.id, message.slice(0, 500), retryAt, clock.now());
          // The address is personal data: the row id finds it when needed.
          log[giveUp ? 'error' : 'warn'](
            { mailId: row.id, template: row.template, attempt: row.attempts, err: message },
            giveUp ? 'mail given up' : 'mail failed; will retry',
          );
        }
      }
      return sent;
    },
  };
}

export type MailDelivery = ReturnType<typeof createMailDelivery>;

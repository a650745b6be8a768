import { and, count, eq, gt, inArray, isNull, lte, min, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import {
  type AlertChannel,
  alertChannels,
  alertDeliveries,
  type OperatorAlert,
  operatorAlerts,
} from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { createMailQueue } from '../mail/queue';
import {
  ALERT_SIGNATURE_HEADER,
  type AlertMessage,
  alertWebhookBody,
  composeAlertMessage,
  signAlertBody,
} from './messages';
import { loadAlertSettings } from './settings';

/** Attempts of one message before it is given up (about a day of backing off). */
export const ALERT_MAX_ATTEMPTS = 12;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 2 * 60 * 60_000;
/** A claimed message is left to its sender this long before another run may take it again. */
const CLAIM_LEASE_MS = 2 * 60_000;
const BATCH_SIZE = 20;
const HOUR_MS = 60 * 60_000;
const MAX_ERROR_LENGTH = 300;

export interface AlertDeliveryDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  secretBox: SecretBox;
  appName: string;
  publicUrl: string;
  /** The Telegram Bot API's base URL for channels that name none: the built-in stand-in's. */
  telegramDefaultUrl: () => string;
  timeoutMs: number;
}

/** 30 s, 1 min, 2 min, … doubling up to 2 hours. */
function retryDelayMs(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1));
}

async function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, text };
}

/**
 * The job that sends queued alert messages: e-mail through the mail outbox (one row per address, sent by
 * the mail job), signed webhooks, and Telegram's `sendMessage`; retried with backoff, at most the
 * channel's hourly allowance (the rest wait for the next hour). Secrets are opened only to send and never
 * logged: a failure logs the channel id and the error's sentence.
 */
export function createAlertDelivery(deps: AlertDeliveryDeps) {
  const { db, clock, log, secretBox } = deps;

  const senders: Record<
    AlertChannel['kind'],
    (
      channel: AlertChannel,
      alert: OperatorAlert,
      event: 'opened' | 'resolved',
      message: AlertMessage,
    ) => Promise<void>
  > = {
    async email(channel, _alert, _event, message) {
      const mail = createMailQueue(db);
      for (const address of channel.target.addresses ?? []) {
        await mail.enqueue({
          userId: channel.createdBy,
          template: 'operator_alert',
          payload: message,
          toAddress: address,
          now: clock.now(),
        });
      }
    },
    async webhook(channel, alert, event, message) {
      const body = alertWebhookBody(alert, event, message);
      const secret = secretBox.open(channel.secret ?? '');
      const { status } = await postJson(
        channel.target.url!,
        { [ALERT_SIGNATURE_HEADER]: signAlertBody(secret, body) },
        body,
        deps.timeoutMs,
      );
      if (status < 200 || status >= 300) throw new Error(`the receiver answered HTTP ${status}`);
    },
    async telegram(channel, _alert, _event, message) {
      const base = (channel.target.apiBaseUrl || deps.telegramDefaultUrl()).replace(/\/+$/, '');
      const token = secretBox.open(channel.secret ?? '');
      const { status, text } = await postJson(
        `${base}/bot${token}/sendMessage`,
        {},
        JSON.stringify({
          chat_id: channel.target.chatId,
          text: [message.subject, ...message.lines, message.link].join('\n'),
          disable_web_page_preview: true,
        }),
        deps.timeoutMs,
      );
      let answer: { ok?: boolean; description?: string } = {};
      try {
        answer = JSON.parse(text);
      } catch {
        // A proxy's HTML page: the status says enough.
      }
      // The token is in the URL: the error says only what the Bot API answered.
      if (!answer.ok) throw new Error(`Telegram answered HTTP ${status}: ${answer.description ?? 'no JSON'}`);
    },
  };

  /** When the channel may send again: now, or an hour after the oldest of its last hour's messages. */
  async function allowanceAt(channelId: number, perHour: number, now: Date): Promise<Date | null> {
    const hourAgo = new Date(now.getTime() - HOUR_MS);
    const [row] = await db
      .select({ sent: count(), oldest: min(alertDeliveries.sentAt) })
      .from(alertDeliveries)
      .where(and(eq(alertDeliveries.channelId, channelId), gt(alertDeliveries.sentAt, hourAgo)));
    if (!row || row.sent < perHour || !row.oldest) return null;
    return new Date(new Date(row.oldest).getTime() + HOUR_MS);
  }

  return {
    /** Sends what is due; returns how many went out. */
    async run(): Promise<number> {
      const now = clock.now();
      const due = db
        .select({ id: alertDeliveries.id })
        .from(alertDeliveries)
        .where(
          and(
            isNull(alertDeliveries.sentAt),
            isNull(alertDeliveries.failedAt),
            lte(alertDeliveries.nextAttemptAt, now),
          ),
        )
        .orderBy(alertDeliveries.id)
        .limit(BATCH_SIZE)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(alertDeliveries)
        .set({
          attempts: sql`${alertDeliveries.attempts} + 1`,
          nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
        })
        .where(inArray(alertDeliveries.id, due))
        .returning();
      if (claimed.length === 0) return 0;
      const settings = await loadAlertSettings(db);
      const alerts = new Map(
        (
          await db
            .select()
            .from(operatorAlerts)
            .where(inArray(operatorAlerts.id, [...new Set(claimed.map((row) => row.alertId))]))
        ).map((alert) => [alert.id, alert]),
      );
      const channels = new Map(
        (
          await db
            .select()
            .from(alertChannels)
            .where(inArray(alertChannels.id, [...new Set(claimed.map((row) => row.channelId))]))
        ).map((channel) => [channel.id, channel]),
      );
      let sent = 0;
      for (const row of claimed.sort((a, b) => a.id - b.id)) {
        const alert = alerts.get(row.alertId)!;
        const channel = channels.get(row.channelId)!;
        const waitUntil = await allowanceAt(channel.id, settings.channelMessagesPerHour, clock.now());
        if (waitUntil) {
          // Over the hour's allowance: not an attempt, it waits its turn.
          await db
            .update(alertDeliveries)
            .set({ attempts: row.attempts - 1, nextAttemptAt: waitUntil })
            .where(eq(alertDeliveries.id, row.id));
          continue;
        }
        try {
          if (!channel.enabled) throw new Error('the channel is disabled');
          const message = composeAlertMessage(alert, row.event, deps.appName, deps.publicUrl);
          await senders[channel.kind](channel, alert, row.event, message);
          await db
            .update(alertDeliveries)
            .set({ sentAt: clock.now(), lastError: null })
            .where(eq(alertDeliveries.id, row.id));
          sent += 1;
        } catch (error) {
          const text = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
          const giveUp = row.attempts >= ALERT_MAX_ATTEMPTS || !channel.enabled;
          await db
            .update(alertDeliveries)
            .set(
              giveUp
                ? { lastError: text, failedAt: clock.now() }
                : {
                    lastError: text,
                    nextAttemptAt: new Date(clock.now().getTime() + retryDelayMs(row.attempts)),
                  },
            )
            .where(eq(alertDeliveries.id, row.id));
          log[giveUp ? 'error' : 'warn'](
            {
              alertDeliveryId: row.id,
              channelId: channel.id,
              kind: channel.kind,
              attempt: row.attempts,
              err: text,
            },
            giveUp ? 'alert message given up' : 'alert message failed; will retry',
          );
        }
      }
      return sent;
    },
  };
}

export type AlertDelivery = ReturnType<typeof createAlertDelivery>;

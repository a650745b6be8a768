import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { protocolIds, saDateTime } from '@simcode/sms-activate-protocol';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Executor, queryRows } from '../../db/client';
import { type ApiKey, apiKeys, type WebhookDelivery, webhookDeliveries } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { resolvePublicAddress, UnsafeTargetError } from '../../lib/public-address';
import type { SecretBox } from '../../lib/secret-box';

/** Deliveries are retried for this long after the SMS, then given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_INTERVAL_MS = 60 * 60_000;
/** A claimed delivery is left alone this long by other instances (longer than any one attempt). */
const CLAIM_LEASE_MS = 60_000;
const BATCH_SIZE = 20;
const MAX_ERROR_LENGTH = 300;

export const SIGNATURE_HEADER = 'x-simcode-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, Stripe's layout: receivers can refuse old timestamps. */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Waits before the next attempt: 30 s, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_INTERVAL_MS);
}

interface WebhookDeps {
  db: Executor;
  clock: Clock;
  /** Opens the keys' sealed webhook secrets. */
  secretBox: SecretBox;
  log: FastifyBaseLogger;
  allowPrivateTargets: boolean;
  timeoutMs: number;
}

/** The SMS-Activate webhook body of what a delivery carries. */
async function bodyOf(
  db: Executor,
  delivery: WebhookDelivery,
  nowMs: number,
): Promise<Record<string, unknown>> {
  if (delivery.kind === 'test')
    return {
      activationId: 0,
      service: 'ot',
      text: 'Test delivery from SimCode: your code is 12345',
      code: '12345',
      country: 0,
      receivedAt: saDateTime(nowMs),
      test: true,
    };
  if (delivery.kind === 'activation_sms') {
    const [row] = await queryRows<{
      activation_id: number;
      service: string;
      country_id: string;
      text: string;
      code: string | null;
      sender: string | null;
      received_at: Date | string;
    }>(
      db,
      sql`select a.id as activation_id, a.service, a.country_id, m.text, m.code, m.sender, m.received_at
        from activation_messages m join activations a on a.id = m.activation_id where m.id = ${delivery.messageId}`,
    );
    if (!row) throw new Error('the SMS of this delivery is gone');
    return {
      activationId: row.activation_id,
      // Hero's field; null where the upstream did not say who sent it.
      phoneFrom: row.sender,
      service: protocolIds.serviceOf(row.service),
      text: row.text,
      code: row.code,
      country: protocolIds.countryOf(row.country_id),
      receivedAt: saDateTime(new Date(row.received_at).getTime()),
    };
  }
  const [row] = await queryRows<{
    rent_id: number;
    sender: string;
    text: string;
    received_at: Date | string;
  }>(db, sql`select rent_id, sender, text, received_at from rent_messages where id = ${delivery.messageId}`);
  if (!row) throw new Error('the SMS of this delivery is gone');
  return {
    rentId: String(row.rent_id),
    sms: { phoneFrom: row.sender, text: row.text, date: saDateTime(new Date(row.received_at).getTime()) },
  };
}

/**
 * Where a delivery goes: a rent's SMS to the URL its buyer gave with the rent, when there is one; everything
 * else to the key's callback URL. Read at each attempt, so a key's new URL applies to the retries.
 */
async function targetOf(db: Executor, delivery: WebhookDelivery, key: ApiKey): Promise<string | null> {
  if (delivery.kind === 'rent_sms') {
    const [row] = await queryRows<{ webhook_url: string | null }>(
      db,
      sql`select r.webhook_url from rent_messages m join rents r on r.id = m.rent_id where m.id = ${delivery.messageId}`,
    );
    if (row?.webhook_url) return row.webhook_url;
  }
  return key.callbackUrl;
}

/**
 * POSTs once to the URL with the connection pinned to the address that was checked, so a DNS answer that
 * changes between the check and the connection (rebinding) cannot move the request elsewhere.
 */
function post(
  url: URL,
  pinned: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [pinned] as never);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

export function createWebhookDelivery({
  db,
  clock,
  secretBox,
  log,
  allowPrivateTargets,
  timeoutMs,
}: WebhookDeps) {
  async function claimDue(): Promise<WebhookDelivery[]> {
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);
    const rows = await queryRows<{ id: string | number }>(
      db,
      sql`update webhook_deliveries set next_attempt_at = ${leaseUntil}
        where id in (select id from webhook_deliveries where status = 'pending' and next_attempt_at <= ${now}
          order by next_attempt_at limit ${BATCH_SIZE} for update skip locked)
        returning id`,
    );
    if (rows.length === 0) return [];
    const ids = rows.map((row) => Number(row.id));
    return db
      .select()
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.id} in (${sql.join(ids, sql`, `)})`);
  }

  async function attempt(delivery: WebhookDelivery, key: ApiKey | undefined): Promise<void> {
    const now = clock.now();
    const attempts = delivery.attempts + 1;
    const finish = async (outcome: { delivered: boolean; statusCode?: number; error?: string }) => {
      const nextAtMs = now.getTime() + retryDelayMs(attempts);
      const giveUp = nextAtMs > delivery.createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS;
      await db
        .update(webhookDeliveries)
        .set({
          attempts,
          lastAttemptAt: now,
          lastStatusCode: outcome.statusCode ?? null,
          lastError: outcome.error?.slice(0, MAX_ERROR_LENGTH) ?? null,
          status: outcome.delivered ? 'delivered' : giveUp ? 'failed' : 'pending',
          nextAttemptAt: new Date(nextAtMs),
        })
        .where(eq(webhookDeliveries.id, delivery.id));
    };
    const target = key && !key.revokedAt ? await targetOf(db, delivery, key) : null;
    if (!key || !target) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'The key has no callback URL any more, or was revoked.' })
        .where(eq(webhookDeliveries.id, delivery.id));
      return;
    }
    try {
      let text = delivery.body;
      if (text === null) {
        text = JSON.stringify(await bodyOf(db, delivery, now.getTime()));
        await db.update(webhookDeliveries).set({ body: text }).where(eq(webhookDeliveries.id, delivery.id));
      }
      // The address is checked again at every attempt, the rent's own URL as the key's.
      const url = new URL(target);
      const pinned = await resolvePublicAddress(url.hostname, allowPrivateTargets);
      const statusCode = await post(
        url,
        pinned,
        {
          'content-type': 'application/json',
          'user-agent': 'SimCode-Webhooks/1',
          [SIGNATURE_HEADER]: signWebhook(
            secretBox.open(key.webhookSecret),
            text,
            Math.floor(now.getTime() / 1000),
          ),
          'x-simcode-delivery': String(delivery.id),
        },
        text,
        timeoutMs,
      );
      await finish(
        statusCode >= 200 && statusCode < 300
          ? { delivered: true, statusCode }
          : { delivered: false, statusCode, error: `The receiver answered HTTP ${statusCode}.` },
      );
    } catch (error) {
      const message =
        error instanceof UnsafeTargetError
          ? `Refused: ${error.message}.`
          : `Delivery failed: ${(error as Error).message}`;
      await finish({ delivered: false, error: message });
    }
  }

  return {
    /** One pass: every due delivery, a batch at a time. Returns how many were attempted. */
    async run(): Promise<number> {
      let attempted = 0;
      for (;;) {
        const due = await claimDue();
        if (due.length === 0) return attempted;
        const keyIds = [...new Set(due.map((delivery) => delivery.apiKeyId))];
        const keys = await db
          .select()
          .from(apiKeys)
          .where(sql`${apiKeys.id} in (${sql.join(keyIds, sql`, `)})`);
        const keyById = new Map(keys.map((key) => [key.id, key]));
        await Promise.all(
          due.map((delivery) =>
            attempt(delivery, keyById.get(delivery.apiKeyId)).catch((error: unknown) =>
              log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery crashed'),
            ),
          ),
        );
        attempted += due.length;
        if (due.length < BATCH_SIZE) return attempted;
      }
    },
  };
}

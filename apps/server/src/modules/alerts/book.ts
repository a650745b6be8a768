import { and, eq, inArray, isNull, like } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { alertChannels, alertDeliveries, type OperatorAlert, operatorAlerts } from '../../db/schema';
import { isUniqueViolation } from '../../lib/errors';

/** A condition that holds now, as a source sees it. */
export interface Condition {
  /** One alert per key while it holds: `supplier_balance_low:sim-a`, `buyer:user:42`. */
  key: string;
  kind: AlertKind;
  summary: string;
  evidence: Record<string, unknown>;
  /** The console page, relative to PUBLIC_URL. */
  link: string;
  /** Since when it holds. */
  since: Date;
}

export const alertKinds = [
  'supplier_balance_low',
  'supplier_out_of_routing',
  'supplier_delivery_low',
  'pair_delivery_low',
  'payment_provider_down',
  'reconciliation_leakage',
  'late_sms_after_refund',
  'buyer_throttled',
] as const;
export type AlertKind = (typeof alertKinds)[number];

/**
 * The alerts' book: a condition opens one alert (the open alert's key is unique, so a second run or
 * instance finds it open and adds nothing), and its clearing resolves it; each opening and resolving
 * queues one message per enabled channel in the outbox (`alert_deliveries`, unique per alert, channel and
 * event).
 */
export function createAlertBook(db: Database) {
  async function queueMessages(alertId: number, event: 'opened' | 'resolved', now: Date) {
    const channels = await db
      .select({ id: alertChannels.id })
      .from(alertChannels)
      .where(eq(alertChannels.enabled, true));
    if (channels.length === 0) return;
    await db
      .insert(alertDeliveries)
      .values(
        channels.map((channel) => ({
          alertId,
          channelId: channel.id,
          event,
          createdAt: now,
          nextAttemptAt: now,
        })),
      )
      .onConflictDoNothing();
  }

  async function openOf(keys: readonly string[]): Promise<OperatorAlert[]> {
    if (keys.length === 0) return [];
    return db
      .select()
      .from(operatorAlerts)
      .where(and(inArray(operatorAlerts.conditionKey, [...keys]), isNull(operatorAlerts.resolvedAt)));
  }

  return {
    /** Opens the condition's alert unless one is open; returns the new alert, or null when it was open. */
    async raise(condition: Condition, now: Date): Promise<OperatorAlert | null> {
      if ((await openOf([condition.key])).length > 0) return null;
      try {
        const [alert] = await db
          .insert(operatorAlerts)
          .values({
            conditionKey: condition.key,
            kind: condition.kind,
            summary: condition.summary,
            evidence: condition.evidence,
            link: condition.link,
            since: condition.since,
            openedAt: now,
          })
          .returning();
        await queueMessages(alert!.id, 'opened', now);
        return alert!;
      } catch (error) {
        // Another instance opened it between our look and our insert: it is open, once.
        if (isUniqueViolation(error, 'operator_alerts_open_key')) return null;
        throw error;
      }
    },

    /** Resolves the open alert of `key`, if any; its "resolved" message goes out on every channel. */
    async clear(key: string, now: Date): Promise<boolean> {
      const [resolved] = await db
        .update(operatorAlerts)
        .set({ resolvedAt: now })
        .where(and(eq(operatorAlerts.conditionKey, key), isNull(operatorAlerts.resolvedAt)))
        .returning({ id: operatorAlerts.id });
      if (!resolved) return false;
      await queueMessages(resolved.id, 'resolved', now);
      return true;
    },

    /**
     * A source's whole view at once: every condition of `holding` is raised, and every open alert whose key
     * starts with `prefix` but is not among them is resolved.
     */
    async sync(prefix: string, holding: readonly Condition[], now: Date): Promise<void> {
      for (const condition of holding) await this.raise(condition, now);
      const open = await db
        .select({ key: operatorAlerts.conditionKey })
        .from(operatorAlerts)
        .where(
          and(
            like(operatorAlerts.conditionKey, `${prefix.replace(/[_%\\]/g, '\\$&')}%`),
            isNull(operatorAlerts.resolvedAt),
          ),
        );
      const held = new Set(holding.map((condition) => condition.key));
      for (const { key } of open) if (!held.has(key)) await this.clear(key, now);
    },

    openOf,
  };
}

export type AlertBook = ReturnType<typeof createAlertBook>;

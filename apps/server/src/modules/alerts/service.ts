import type {
  AlertChannelCreate,
  AlertsResponse,
  OperatorAlertView,
  ReconciliationDay,
} from '@simcode/contract';
import { desc } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { type OperatorAlert, operatorAlerts } from '../../db/schema';
import type { CallBudget } from '../../lib/call-budget';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { ProviderPool } from '../../providers/sms/pool';
import type { Actor } from '../admin/audit';
import { createSupplierBalances, lowBalanceConditions, outOfRoutingConditions } from './balances';
import { createAlertBook } from './book';
import { createBuyerIsolation } from './buyer-isolation';
import { createAlertChannels, presentChannel } from './channels';
import {
  deliveryLowConditions,
  lateSmsConditions,
  leakageConditions,
  type PaymentProviderView,
  pairDeliveryLowConditions,
  paymentDownConditions,
  recentDays,
} from './conditions';
import { type AlertSettings, loadAlertSettings, saveAlertSettings } from './settings';

/** Alerts the console lists: the open ones and the latest resolved. */
const LISTED_ALERTS = 200;

export interface AlertsDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  secretBox: SecretBox;
  providers: ProviderPool;
  upstreamBudgets: ReadonlyMap<string, CallBudget>;
  /** Each payment provider's health as this process sees it (modules/payments/health.ts). */
  paymentProviders: () => PaymentProviderView[];
  /** Suppliers, and pairs (`tg:US`), delivering out of their band, each with why (the status checks' band). */
  deliveryOutOfBand: () => Promise<{
    suppliers: ReadonlyMap<string, string>;
    pairs: ReadonlyMap<string, string>;
  }>;
  /** The reconciliation's per supplier and day figures (modules/reconciliation). */
  reconciledDays: (range: { from: string; to: string }) => Promise<ReconciliationDay[]>;
}

function presentAlert(alert: OperatorAlert): OperatorAlertView {
  return {
    id: alert.id,
    key: alert.conditionKey,
    kind: alert.kind,
    summary: alert.summary,
    evidence: alert.evidence,
    link: alert.link,
    since: alert.since.toISOString(),
    opened_at: alert.openedAt.toISOString(),
    resolved_at: alert.resolvedAt?.toISOString() ?? null,
  };
}

/**
 * Operator alerts: the sources (supplier balances, routing, payment providers, reconciliation, abusive
 * buyers) raise and clear conditions in the alerts' book, which queues one message per channel; the
 * console configures channels and thresholds and lists the alerts.
 */
export function createAlertsService(deps: AlertsDeps) {
  const { db, clock, log, providers } = deps;
  const book = createAlertBook(db);
  const balances = createSupplierBalances(deps);
  const channels = createAlertChannels(db, deps.secretBox);
  const buyers = createBuyerIsolation({ db, clock, book });

  /** One source's failure must not keep the others from being evaluated. */
  async function guarded(source: string, work: () => Promise<void>) {
    await work().catch((error: unknown) => log.warn({ err: error, source }, 'alert source failed'));
  }

  return {
    book,
    balances,
    buyers,

    /** The balance job: reads each supplier within its budget (one instance), then evaluates. */
    async readBalances(): Promise<void> {
      await balances.read();
    },

    /** Every source's conditions raised or cleared; run by one instance on a timer. */
    async evaluate(): Promise<void> {
      const settings = await loadAlertSettings(db);
      const now = clock.now();
      await balances.applyToRouting();
      await guarded('balances', async () =>
        book.sync('supplier_balance_low:', lowBalanceConditions(await balances.outlook(), settings), now),
      );
      await guarded('routing', () =>
        book.sync('supplier_out_of_routing:', outOfRoutingConditions(providers), now),
      );
      await guarded('delivery', async () => {
        const outOfBand = await deps.deliveryOutOfBand();
        await book.sync('supplier_delivery_low:', deliveryLowConditions(outOfBand.suppliers, now), now);
        await book.sync('pair_delivery_low:', pairDeliveryLowConditions(outOfBand.pairs, now), now);
      });
      await guarded('payments', () =>
        book.sync('payment_provider_down:', paymentDownConditions(deps.paymentProviders()), now),
      );
      // A day's leakage alert clears when its leakage falls under the threshold or the day leaves the two.
      await guarded('leakage', async () =>
        book.sync(
          'reconciliation_leakage:',
          leakageConditions(await deps.reconciledDays(recentDays(now)), settings),
          now,
        ),
      );
      await guarded('late-sms', async () =>
        book.sync('late_sms_after_refund:', await lateSmsConditions(db, settings, now), now),
      );
      await guarded('buyers', () => buyers.clearRecovered());
    },

    async view(): Promise<Omit<AlertsResponse, 'success'>> {
      const alerts = await db
        .select()
        .from(operatorAlerts)
        .orderBy(desc(operatorAlerts.id))
        .limit(LISTED_ALERTS);
      const outlooks = await balances.outlook();
      return {
        alerts: alerts.map(presentAlert),
        channels: (await channels.list()).map(presentChannel),
        settings: await loadAlertSettings(db),
        balances: outlooks.map((outlook) => ({
          provider: outlook.provider,
          balance_cents: outlook.balanceCents,
          read_at: outlook.readAt.toISOString(),
          spend_cents_per_hour: outlook.spendCentsPerHour,
          hours_left: outlook.hoursLeft === null ? null : Math.round(outlook.hoursLeft * 10) / 10,
          in_routing: providers.routable(outlook.provider),
        })),
      };
    },

    async addChannel(actor: Actor, input: AlertChannelCreate) {
      const { channel, secret } = await channels.create(input, actor.id, clock.now());
      log.info({ channelId: channel.id, kind: channel.kind, adminId: actor.id }, 'alert channel added');
      return { channel: presentChannel(channel), ...(secret ? { secret } : {}) };
    },

    async setChannelEnabled(actor: Actor, id: number, enabled: boolean) {
      const channel = await channels.setEnabled(id, enabled);
      if (!channel) throw notFound();
      log.info({ channelId: id, enabled, adminId: actor.id }, 'alert channel switched');
      return presentChannel(channel);
    },

    async removeChannel(actor: Actor, id: number): Promise<void> {
      if (!(await channels.remove(id))) throw notFound();
      log.info({ channelId: id, adminId: actor.id }, 'alert channel removed');
    },

    async saveSettings(actor: Actor, settings: AlertSettings): Promise<AlertSettings> {
      await saveAlertSettings(db, settings, clock.now());
      log.info({ adminId: actor.id, settings }, 'alert settings saved');
      return loadAlertSettings(db);
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;

import path from 'node:path';
import { TELEGRAM_STAND_IN_PREFIX } from '@simcode/stand-ins';
import { jobLocks, withJobLock } from '../db/locks';
import type { Job } from '../lib/scheduler';
import { businessHoursJob } from '../modules/admin/overview/rollup';
import { HEALTH_REPORT_INTERVAL_MS } from '../modules/admin/providers/health-reports';
import { applyRoutingSwitches } from '../modules/admin/providers/service';
import { createAlertDelivery } from '../modules/alerts/delivery';
import { createWebhookDelivery } from '../modules/api-keys/webhooks';
import { takeSnapshot, writeScheduledSnapshot } from '../modules/backups/snapshot';
import { createMailDelivery } from '../modules/mail/delivery';
import { createMailTransport } from '../modules/mail/transport';
import { deliveryStatsJob } from '../modules/orders/activations/delivery-stats';
import { createActivationSync } from '../modules/orders/activations/sync';
import { createRentalSync } from '../modules/orders/rents/sync';
import { createPaymentReconciliation, RECONCILIATION_INTERVAL_MS } from '../modules/payments/reconciliation';
import { deliveryIndexFreezeJob } from '../modules/stats/freeze-job';
import { statusChecksJob } from '../modules/status/job';
import type { Container } from './container';

/** How often the sync job wakes up; it sweeps the upstream only when due and within budget. */
const ACTIVATION_SYNC_TICK_MS = 2000;
/** Rentals wake up as often: expiry at the end date needs it; their upstream calls are budgeted. */
const RENTAL_SYNC_TICK_MS = 2000;
const CAPTCHA_PRUNE_MS = 10 * 60_000;
/** Checks every half hour whether a supplier's yesterday still needs reconciling (cheap when done). */
const SUPPLIER_RECONCILIATION_TICK_MS = 30 * 60_000;
/** Customer webhooks go out within this of the SMS (each instance claims its own batch). */
const WEBHOOK_DELIVERY_TICK_MS = 1000;
/** A reset link is in the inbox within this of asking (plus the mail server's own time). */
const MAIL_DELIVERY_TICK_MS = 1000;
/** Each supplier's balance is read this often (one call from its budget): the series' resolution. */
const SUPPLIER_BALANCE_READ_MS = 5 * 60_000;
/** The alert sources are evaluated this often; a condition is alerted within it. */
const OPERATOR_ALERTS_TICK_MS = 60_000;
/** Queued alert messages go out within this (each instance claims its own batch). */
const ALERT_DELIVERY_TICK_MS = 5000;

/** Every periodic task of the product, with the locks that keep leader-only work on one instance. */
export function createJobs(ctx: Container): Job[] {
  // Work a killed process left half done (purchases between hold and settle, unchecked payments) is
  // settled by each job's first run, right after the server listens, not minutes later.
  const startedAt = ctx.clock.now();
  // Each provider is swept on its own budget: one slow or large provider cannot starve the others.
  const activationSyncs = ctx.providers.members.map((member) =>
    createActivationSync({
      startedAt,
      orders: ctx.orders.activations,
      provider: member.provider,
      budget: ctx.upstreamBudgets.get(member.name)!,
    }),
  );
  const rentalSyncs = ctx.providers.rentMembers().map((member) =>
    createRentalSync({
      startedAt,
      rents: ctx.orders.rents,
      provider: member.rents,
      budget: ctx.upstreamBudgets.get(member.name)!,
    }),
  );
  const reconciliation = createPaymentReconciliation({
    topups: ctx.topups,
    clock: ctx.clock,
    log: ctx.log,
    startedAt,
  });
  const webhookDelivery = createWebhookDelivery({
    db: ctx.database.db,
    clock: ctx.clock,
    secretBox: ctx.secretBox,
    log: ctx.log,
    allowPrivateTargets: ctx.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
  });
  const mailDelivery = createMailDelivery({
    db: ctx.database.db,
    transport: createMailTransport(ctx.config),
    clock: ctx.clock,
    log: ctx.log,
    appName: ctx.config.APP_NAME,
    publicUrl: ctx.config.PUBLIC_URL,
  });
  const alertDelivery = createAlertDelivery({
    db: ctx.database.db,
    clock: ctx.clock,
    log: ctx.log,
    secretBox: ctx.secretBox,
    appName: ctx.config.APP_NAME,
    publicUrl: ctx.config.PUBLIC_URL,
    telegramDefaultUrl: () => `${ctx.loopback.origin}${TELEGRAM_STAND_IN_PREFIX}`,
    timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
  });
  const jobs: Job[] = [
    {
      name: 'catalog-refresh',
      intervalMs: ctx.config.CATALOG_REFRESH_MS,
      async run() {
        // The console's markup rules and routing switches reach every instance here, within one refresh.
        const pricesChanged = await ctx.pricing.reload(ctx.database.db);
        const routingChanged = await applyRoutingSwitches(ctx.database.db, ctx.providers);
        const repriced = pricesChanged || routingChanged;
        const ranHere = await withJobLock(ctx.database, jobLocks.catalogRefresh, async () => {
          await ctx.catalog.refreshFromUpstream();
        });
        if (!ranHere) await ctx.catalog.loadFromStore();
        if (repriced) ctx.catalog.reprice();
      },
    },
    {
      name: 'activation-sync',
      intervalMs: ACTIVATION_SYNC_TICK_MS,
      run: async () => {
        await withJobLock(ctx.database, jobLocks.activationSync, async () => {
          // One provider's failure must not keep the others from being settled.
          for (const sync of activationSyncs) {
            await sync
              .run()
              .catch((error: unknown) => ctx.log.warn({ err: error }, 'activation sync failed'));
          }
        });
      },
    },
    {
      name: 'rental-sync',
      intervalMs: RENTAL_SYNC_TICK_MS,
      run: async () => {
        await withJobLock(ctx.database, jobLocks.rentalSync, async () => {
          // Each sync's steps catch their own failures; one provider's rents never hold up another's.
          for (const sync of rentalSyncs) await sync.run();
        });
      },
    },
    {
      name: 'payment-reconciliation',
      intervalMs: RECONCILIATION_INTERVAL_MS,
      run: async () => {
        await withJobLock(ctx.database, jobLocks.paymentReconciliation, () => reconciliation.run());
      },
    },
    {
      // The nightly reconciliation of each supplier's yesterday, retried until its history was read whole.
      name: 'supplier-reconciliation',
      intervalMs: SUPPLIER_RECONCILIATION_TICK_MS,
      run: async () => {
        await withJobLock(ctx.database, jobLocks.supplierReconciliation, () =>
          ctx.admin.reconciliation.runDue(),
        );
      },
    },
    {
      // One instance reads the balances; every instance applies the latest readings to its own routing.
      name: 'supplier-balances',
      intervalMs: SUPPLIER_BALANCE_READ_MS,
      run: async () => {
        await withJobLock(ctx.database, jobLocks.supplierBalances, () => ctx.alerts.readBalances());
        await ctx.alerts.balances.applyToRouting();
      },
    },
    {
      name: 'operator-alerts',
      intervalMs: OPERATOR_ALERTS_TICK_MS,
      run: async () => {
        await withJobLock(ctx.database, jobLocks.operatorAlerts, () => ctx.alerts.evaluate());
      },
    },
    {
      name: 'alert-delivery',
      intervalMs: ALERT_DELIVERY_TICK_MS,
      run: async () => {
        await alertDelivery.run();
      },
    },
    deliveryStatsJob(ctx),
    businessHoursJob(ctx),
    deliveryIndexFreezeJob(ctx),
    statusChecksJob(ctx),
    {
      name: 'mail',
      intervalMs: MAIL_DELIVERY_TICK_MS,
      run: async () => {
        await mailDelivery.run();
      },
    },
    {
      name: 'customer-webhooks',
      intervalMs: WEBHOOK_DELIVERY_TICK_MS,
      run: async () => {
        await webhookDelivery.run();
      },
    },
  ];
  if (ctx.database.pool) {
    // Only where other instances can read it: an embedded database has one process.
    jobs.push({
      name: 'provider-health-report',
      intervalMs: HEALTH_REPORT_INTERVAL_MS,
      run: () => ctx.healthReports.publish(),
    });
  }
  const { pglite } = ctx.database;
  if (pglite && ctx.config.BACKUP_INTERVAL_MINUTES > 0) {
    const { DATA_DIR, BACKUP_DIR, BACKUP_KEEP, BACKUP_INTERVAL_MINUTES } = ctx.config;
    jobs.push({
      name: 'backup',
      intervalMs: BACKUP_INTERVAL_MINUTES * 60_000,
      async run() {
        const now = new Date();
        const snapshot = await takeSnapshot(pglite, DATA_DIR, now);
        const file = await writeScheduledSnapshot(
          snapshot,
          BACKUP_DIR ?? path.join(DATA_DIR, 'backups'),
          BACKUP_KEEP,
          now,
        );
        ctx.log.info({ file, bytes: snapshot.length }, 'scheduled backup written');
      },
    });
  }
  if (ctx.altcha) {
    const { altcha } = ctx;
    jobs.push({ name: 'captcha-prune', intervalMs: CAPTCHA_PRUNE_MS, run: () => altcha.pruneUsed() });
  }
  return jobs;
}

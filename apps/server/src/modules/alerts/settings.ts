import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { alertSettings } from '../../db/schema';

/** The operators' thresholds, all integers with their unit in the name; the console edits them. */
export const DEFAULT_ALERT_SETTINGS = {
  /** A supplier whose balance runs out within this at its current spend raises a low-balance alert. */
  balanceHorizonHours: 24,
  /** ... and so does one whose balance falls under this, whatever its spend. */
  balanceFloorCents: 1000,
  /** A supplier-day whose leakage (ADR 0026) exceeds this share of its net cost raises an alert. */
  leakageThresholdPercent: 5,
  /** Codes delivered after we refunded the order, per supplier over the last two days, that raise an alert. */
  lateSmsThreshold: 1,
  /** Messages one channel sends per hour at most; the rest wait for the next hour. */
  channelMessagesPerHour: 30,
  /** The rolling window of a buyer's record. */
  buyerWindowMinutes: 60,
  /** Cancels within the window that throttle a buyer (a customer, or one of its API keys). */
  buyerMaxCancels: 20,
  /** Orders that ended without a code within the window that throttle a buyer. */
  buyerMaxNoCode: 30,
  /** Cancels a supplier refused as too early within the window that throttle a buyer. */
  buyerMaxEarlyCancelRefusals: 10,
};

export type AlertSettings = typeof DEFAULT_ALERT_SETTINGS;
export type AlertSettingName = keyof AlertSettings;

/** Bounds each setting must stay within (inclusive). */
export const ALERT_SETTING_LIMITS: Record<AlertSettingName, [number, number]> = {
  balanceHorizonHours: [1, 24 * 30],
  balanceFloorCents: [0, 100_000_000],
  leakageThresholdPercent: [0, 100],
  lateSmsThreshold: [1, 100_000],
  channelMessagesPerHour: [1, 10_000],
  buyerWindowMinutes: [5, 7 * 24 * 60],
  buyerMaxCancels: [1, 100_000],
  buyerMaxNoCode: [1, 100_000],
  buyerMaxEarlyCancelRefusals: [1, 100_000],
};

/** The settings in force: the stored ones over the defaults (a setting added later reads its default). */
export async function loadAlertSettings(db: Executor): Promise<AlertSettings> {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.id, 1));
  return { ...DEFAULT_ALERT_SETTINGS, ...(row?.settings as Partial<AlertSettings> | undefined) };
}

export async function saveAlertSettings(db: Executor, settings: AlertSettings, now: Date): Promise<void> {
  await db
    .insert(alertSettings)
    .values({ id: 1, settings, updatedAt: now })
    .onConflictDoUpdate({ target: alertSettings.id, set: { settings, updatedAt: now } });
}

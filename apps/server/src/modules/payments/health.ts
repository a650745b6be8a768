import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { PaymentProviderError } from '../../providers/payments/types';

/** A provider that is down is asked again (its methods, as a probe) at most this often. */
export const PROBE_INTERVAL_MS = 30_000;

export interface ProviderHealthView {
  up: boolean;
  /** When the provider went down; null while up. */
  downSince: Date | null;
  /** The last failure's message, for operators (never shown to payers). */
  lastError: string | null;
  /** Its kind: `unavailable`, `configuration`, or `unexpected` for anything but a provider's error. */
  lastErrorCode: string | null;
}

interface Record_ {
  downSinceMs: number | null;
  lastProbeMs: number;
  lastError: string | null;
  lastErrorCode: string | null;
}

/**
 * Which payment providers answer, as this process sees them. One failed call that says the provider is
 * unreachable or refuses our credentials ('unavailable' after the adapter's own retries, 'configuration')
 * takes it off the Top Up page; the next successful call brings it back. Going down and coming back are
 * logged at error and info level: the operators' alerting reads the error log.
 */
export function createPaymentHealth(clock: Clock, log: FastifyBaseLogger) {
  const records = new Map<string, Record_>();
  const recordOf = (provider: string) => {
    let record = records.get(provider);
    if (!record) {
      record = {
        downSinceMs: null,
        lastProbeMs: Number.NEGATIVE_INFINITY,
        lastError: null,
        lastErrorCode: null,
      };
      records.set(provider, record);
    }
    return record;
  };

  return {
    succeeded(provider: string): void {
      const record = recordOf(provider);
      if (record.downSinceMs !== null) {
        log.info({ provider }, 'payment provider recovered: shown on the Top Up page again');
      }
      record.downSinceMs = null;
    },

    /** Counts a failed call; errors that are about one request (rejected, not found) say nothing of health. */
    failed(provider: string, error: unknown): void {
      if (error instanceof PaymentProviderError && (error.kind === 'rejected' || error.kind === 'not_found'))
        return;
      const record = recordOf(provider);
      record.lastError = error instanceof Error ? error.message : String(error);
      record.lastErrorCode = error instanceof PaymentProviderError ? error.kind : 'unexpected';
      if (record.downSinceMs === null) {
        record.downSinceMs = clock.now().getTime();
        record.lastProbeMs = record.downSinceMs;
        log.error(
          { provider, err: error },
          'payment provider down: hidden from the Top Up page until it answers',
        );
      }
    },

    isUp: (provider: string) => (records.get(provider)?.downSinceMs ?? null) === null,

    /** Whether a down provider is due for another try (and counts this as the try). */
    probeDue(provider: string): boolean {
      const record = recordOf(provider);
      const nowMs = clock.now().getTime();
      if (record.downSinceMs === null || nowMs - record.lastProbeMs >= PROBE_INTERVAL_MS) {
        record.lastProbeMs = nowMs;
        return true;
      }
      return false;
    },

    view(provider: string): ProviderHealthView {
      const record = records.get(provider);
      return {
        up: (record?.downSinceMs ?? null) === null,
        downSince: record?.downSinceMs != null ? new Date(record.downSinceMs) : null,
        lastError: record?.lastError ?? null,
        lastErrorCode: record?.lastErrorCode ?? null,
      };
    },
  };
}

export type PaymentHealth = ReturnType<typeof createPaymentHealth>;

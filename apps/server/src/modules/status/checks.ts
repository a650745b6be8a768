import http from 'node:http';
import type { CallBudget } from '../../lib/call-budget';
import type { ProviderPool } from '../../providers/sms/pool';
import type { PaymentHealth } from '../payments/health';
import type { StatusComponentDef } from './components';
import type { CheckResult } from './repository';

/** A check that takes longer than this failed: a visitor would have given up. */
export const CHECK_TIMEOUT_MS = 10_000;
/** The checks' name in each supplier's shared upstream budget. */
export const STATUS_BUDGET = 'status-checks';
/** The product's own cheap public endpoints: the site's home page and the open index's smallest window. */
const WEB_PATH = '/';
const API_PATH = '/api/v1/stats?window=24h';
/**
 * A supplier whose purchase calls failed this often over the window fails its check though its catalog
 * answers (a supplier out of money, or refusing orders). From three calls on: as many failures in a row
 * take it out of routing, and then no more calls come to count.
 */
const PURCHASE_ERROR_WINDOW_MS = 10 * 60_000;
const PURCHASE_ERROR_SHARE = 0.5;
const PURCHASE_ERROR_MIN_CALLS = 3;

export interface CheckDeps {
  components: readonly StatusComponentDef[];
  /** This server's own address: the web and API checks are real requests to it. */
  origin: () => string;
  /** The public address: its host is the one the pages answer to. */
  publicUrl: string;
  providers: ProviderPool;
  upstreamBudgets: ReadonlyMap<string, CallBudget>;
  paymentProviders: readonly { name: string }[];
  paymentHealth: PaymentHealth;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/** Why the supplier's recent purchase calls fail its check, or null. */
function purchaseErrors(providers: ProviderPool, supplier: string): string | null {
  const health = providers.health;
  const sinceMs = health.now().getTime() - PURCHASE_ERROR_WINDOW_MS;
  const { calls, errors } = health.callsSince(supplier, sinceMs);
  if (calls < PURCHASE_ERROR_MIN_CALLS || errors < calls * PURCHASE_ERROR_SHARE) return null;
  return `${errors} of ${calls} purchase calls failed in the last ${PURCHASE_ERROR_WINDOW_MS / 60_000} minutes`;
}

async function timed(component: string, check: () => Promise<string | null>): Promise<CheckResult> {
  const startedMs = performance.now();
  let error: string | null;
  try {
    error = await check();
  } catch (thrown) {
    error = message(thrown);
  }
  return { component, ok: error === null, latencyMs: Math.round(performance.now() - startedMs), error };
}

/**
 * A request to this server as a visitor's browser makes it: by the public host (else the page would
 * redirect there), asking for HTML. Node's own client, since fetch may not set the Host header.
 */
function ownPage(origin: string, publicUrl: string, path: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${origin}${path}`,
      {
        headers: { host: new URL(publicUrl).host, accept: 'text/html,application/json' },
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200 ? null : `HTTP ${response.statusCode}`));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/**
 * One round of synthetic checks: the site and the API by a request to this server, payments by each
 * provider's health as the top-ups see it, each supplier by its catalog call, its purchase calls' errors
 * (as this instance made them) and its delivery's band (every instance's orders). A supplier is asked only
 * within its upstream call budget: a minute without room records nothing for it (not a failure).
 */
export async function runChecks(
  deps: CheckDeps,
  /** Suppliers delivering codes out of their normal band, and why: their check fails too. */
  outOfBand: ReadonlyMap<string, string>,
): Promise<CheckResult[]> {
  const checks = deps.components.map(async (component): Promise<CheckResult | null> => {
    switch (component.id) {
      case 'web':
        return timed(component.id, () => ownPage(deps.origin(), deps.publicUrl, WEB_PATH));
      case 'api':
        return timed(component.id, () => ownPage(deps.origin(), deps.publicUrl, API_PATH));
      case 'payments':
        return timed(component.id, async () => {
          const down = deps.paymentProviders.filter((provider) => !deps.paymentHealth.isUp(provider.name));
          return down.length === 0 ? null : `${down.length} of ${deps.paymentProviders.length} down`;
        });
      default: {
        const supplier = component.supplier!;
        if (!deps.upstreamBudgets.get(supplier)?.tryTake(STATUS_BUDGET)) return null;
        return timed(component.id, async () => {
          await deps.providers.member(supplier).provider.getCatalog();
          return outOfBand.get(supplier) ?? purchaseErrors(deps.providers, supplier);
        });
      }
    }
  });
  return (await Promise.all(checks)).filter((result): result is CheckResult => result !== null);
}

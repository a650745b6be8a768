import type { PricingRules } from '@simcode/contract';
import type { Executor } from '../../db/client';
import { pricingRules } from '../../db/schema';
import type { MarkupRules } from './pricing';

/** The console's rules (wire shape) as the catalog reads them: one map keyed `tg`, `US` or `tg:US`. */
export function markupRulesOf(rules: PricingRules): MarkupRules {
  return {
    defaultPercent: rules.default_percent,
    overrides: new Map(
      rules.overrides.map((override) => [
        [override.service, override.country_id].filter((part) => part !== null).join(':'),
        override.percent,
      ]),
    ),
  };
}

/** The catalog's rules in the console's shape, overrides in a stable order. */
export function pricingRulesOf(rules: MarkupRules): PricingRules {
  return {
    default_percent: rules.defaultPercent,
    overrides: [...rules.overrides]
      .map(([key, percent]) => {
        const [first, second] = key.split(':');
        const isCountry = /^[A-Z]{2}$/.test(first!);
        return {
          service: isCountry ? null : first!,
          country_id: second ?? (isCountry ? first! : null),
          percent,
        };
      })
      .sort((a, b) =>
        `${a.service ?? ''}:${a.country_id ?? ''}`.localeCompare(`${b.service ?? ''}:${b.country_id ?? ''}`),
      ),
  };
}

/**
 * The markup rules in force. They live in the database once an administrator saved them from the console;
 * until then the environment's PRICE_MARKUP_* are the rules. Each instance reloads them with every catalog
 * refresh, so a change reaches every instance within one refresh.
 */
export class PricingRulesStore {
  #rules: MarkupRules;

  constructor(private readonly fallback: MarkupRules) {
    this.#rules = fallback;
  }

  current(): MarkupRules {
    return this.#rules;
  }

  /** Reads the stored rules; true when they differ from the ones in force. */
  async reload(db: Executor): Promise<boolean> {
    const rows = await db.select().from(pricingRules);
    const next = rows.length === 0 ? this.fallback : rulesFromRows(rows);
    const changed = JSON.stringify(pricingRulesOf(next)) !== JSON.stringify(pricingRulesOf(this.#rules));
    this.#rules = next;
    return changed;
  }
}

function rulesFromRows(rows: ReadonlyArray<typeof pricingRules.$inferSelect>): MarkupRules {
  const global = rows.find((row) => row.service === '' && row.countryId === '');
  return markupRulesOf({
    default_percent: Number(global?.markupPercent ?? 0),
    overrides: rows
      .filter((row) => row !== global)
      .map((row) => ({
        service: row.service || null,
        country_id: row.countryId || null,
        percent: Number(row.markupPercent),
      })),
  });
}

/** Replaces the stored rules (in the caller's transaction, with its audit entry). */
export async function saveRules(tx: Executor, rules: PricingRules, now: Date): Promise<void> {
  await tx.delete(pricingRules);
  await tx.insert(pricingRules).values([
    { service: '', countryId: '', markupPercent: rules.default_percent.toFixed(2), updatedAt: now },
    ...rules.overrides.map((override) => ({
      service: override.service ?? '',
      countryId: override.country_id ?? '',
      markupPercent: override.percent.toFixed(2),
      updatedAt: now,
    })),
  ]);
}

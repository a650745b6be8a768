import {
  adminMessages,
  centsToDollars,
  countryById,
  type PricingRules,
  serviceByCode,
} from '@simcode/contract';
import type { Database } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import { fail } from '../../../lib/errors';
import type { ProviderPool } from '../../../providers/sms/pool';
import { markupFor, salePriceCents } from '../../catalog/pricing';
import {
  markupRulesOf,
  type PricingRulesStore,
  pricingRulesOf,
  saveRules,
} from '../../catalog/pricing-rules';
import type { CatalogService } from '../../catalog/service';
import { type Actor, createAuditRepository, presentAudit, recordAudit } from '../audit';

/** The audit log's object for the rules: there is one set. */
const RULES_OBJECT = 'rules';

interface Deps {
  db: Database;
  pricing: PricingRulesStore;
  catalog: CatalogService;
  providers: ProviderPool;
  clock: Clock;
}

/** Every override names a known service or country, and each scope once. */
function checkRules(rules: PricingRules): void {
  const scopes = new Set<string>();
  for (const override of rules.overrides) {
    if (override.service !== null && !serviceByCode(override.service))
      throw fail('unknown_service', adminMessages.noSuchService(override.service));
    if (override.country_id !== null && !countryById(override.country_id))
      throw fail('unknown_country', adminMessages.noSuchCountry(override.country_id));
    const scope = `${override.service ?? '*'}:${override.country_id ?? '*'}`;
    if (scopes.has(scope)) throw fail('duplicate_scope');
    scopes.add(scope);
  }
}

/** The console's pricing: the markup rules, their history, a preview, and saving them. */
export function createAdminPricingService({ db, pricing, catalog, providers, clock }: Deps) {
  const audit = createAuditRepository(db);

  async function state() {
    return {
      rules: pricingRulesOf(pricing.current()),
      history: (await audit.forObject('pricing', RULES_OBJECT)).map(presentAudit),
    };
  }

  return {
    state,

    /**
     * Stores the rules with their audit entry (before and after: the history) in one transaction, and
     * prices this instance's catalog with them at once; the others follow within one catalog refresh.
     */
    async save(actor: Actor, rules: PricingRules, reason: string) {
      checkRules(rules);
      const before = pricingRulesOf(pricing.current());
      await db.transaction(async (tx) => {
        await saveRules(tx, rules, clock.now());
        await recordAudit(
          tx,
          actor,
          {
            action: 'pricing.update',
            objectType: 'pricing',
            objectId: RULES_OBJECT,
            before,
            after: rules,
            reason,
          },
          clock.now(),
        );
      });
      if (await pricing.reload(db)) catalog.reprice();
      return { ...(await state()), message: adminMessages.pricingSaved };
    },

    /** What a service would sell for in each country under the proposed rules, beside today's price. */
    preview(rules: PricingRules, service: string) {
      checkRules(rules);
      if (!serviceByCode(service)) throw fail('unknown_service', adminMessages.noSuchService(service));
      const proposed = markupRulesOf(rules);
      return catalog.countries().flatMap((country) => {
        const offer = catalog.services(country.id).find((entry) => entry.service === service);
        // The offer routing ranks first today; the preview keeps the provider and changes only the markup.
        const source = offer?.providerOffers.find((candidate) => candidate.priceCents === offer.priceCents);
        if (!offer || !source) return [];
        const usdRate = providers.member(source.provider).usdRate;
        return [
          {
            country_id: country.id,
            country: country.name,
            current_price: centsToDollars(offer.priceCents),
            new_price: centsToDollars(
              salePriceCents(source.upstreamCost, usdRate, markupFor(proposed, service, country.id)),
            ),
            cost: centsToDollars(source.costCents),
            stock: offer.stock,
          },
        ];
      });
    },
  };
}

export type AdminPricingService = ReturnType<typeof createAdminPricingService>;

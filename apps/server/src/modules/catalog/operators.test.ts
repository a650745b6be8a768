import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createListeningTestApp } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { activations } from '../../db/schema';
import { ANY_OPERATOR } from './service';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

/** A country with several named operators, and a service sim-b (5sim, priced per operator) sells there. */
function operatorCountry() {
  for (const country of t.ctx.catalog.countries()) {
    const named = country.operators.filter((operator) => operator.key !== ANY_OPERATOR);
    if (named.length < 2) continue;
    const offer = t.ctx.catalog
      .services(country.id)
      .find((entry) =>
        entry.providerOffers.some((candidate) => candidate.provider === 'sim-b' && candidate.byOperator),
      );
    if (offer) return { countryId: country.id, operator: named[0]!.key, offer };
  }
  throw new Error('no country with several operators sold by sim-b');
}

describe('offers per operator', () => {
  it('prices and stocks a chosen operator from each provider’s offer for it, and buys at that price', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b' });
    const { countryId, operator, offer } = operatorCountry();
    const simB = offer.providerOffers.find((candidate) => candidate.provider === 'sim-b')!;
    const simBOperator = simB.byOperator!.get(operator)!;
    // 5sim shows each operator's own shelf: a share of its stock for any operator.
    expect(simBOperator.stock).toBeLessThan(simB.stock);

    const forOperator = t.ctx.catalog
      .services(countryId, operator)
      .find((entry) => entry.service === offer.service)!;
    const simBThere = forOperator.providerOffers.find((candidate) => candidate.provider === 'sim-b')!;
    expect(simBThere).toMatchObject({ stock: simBOperator.stock, priceCents: simBOperator.priceCents });
    expect(forOperator.stock).toBe(
      forOperator.providerOffers.reduce((sum, candidate) => sum + candidate.stock, 0),
    );
    expect(forOperator.stock).toBeLessThan(offer.stock);

    // The quote for that operator comes from its offers, and the purchase names the operator upstream.
    const quote = t.ctx.catalog.quote(countryId, operator, offer.service);
    expect(quote.priceCents).toBe(forOperator.priceCents);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: countryId, operator, service: offer.service },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order).toMatchObject({ operator, priceCents: quote.priceCents });
  });

  it('gives each named operator of a country its lowest price in stock and its stock in the countries list', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b' });
    const { countryId, operator } = operatorCountry();
    const user = await createUser(t);
    const country = (await t.app.inject({ url: '/api/dashboard/countries', headers: user.headers }))
      .json()
      .countries.find((entry: { id: string }) => entry.id === countryId);
    const offers = t.ctx.catalog.services(countryId, operator);
    const inStock = offers.filter((entry) => entry.stock > 0);
    expect(country.operatorFigures[operator]).toEqual({
      fromPrice: Math.min(...inStock.map((entry) => entry.priceCents)) / 100,
      stock: offers.reduce((sum, entry) => sum + entry.stock, 0),
    });
    // "Any operator" is the country's own figures, not an operator's.
    expect(country.operatorFigures[ANY_OPERATOR]).toBeUndefined();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { anOffer, createListeningTestApp } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

describe('the public price list', () => {
  it('answers without an account what a signed-in buyer sees in "By service", cacheable, and refuses a service it does not know', async () => {
    t = await createListeningTestApp();
    const { service, priceCents } = anOffer(t, 'US');
    const open = await t.app.inject({ url: `/api/v1/prices/${service}` });
    expect(open.statusCode).toBe(200);
    expect(open.headers['cache-control']).toBe('public, max-age=60');
    const answer = open.json();
    expect(answer.service.id).toBe(service);
    expect(answer.countries).toContainEqual(
      expect.objectContaining({ countryID: 'US', price: priceCents / 100, stock: expect.any(Number) }),
    );

    const user = await createUser(t);
    const signedIn = await t.app.inject({
      url: `/api/dashboard/service-countries?service=${service}`,
      headers: user.headers,
    });
    expect(signedIn.json()).toEqual(answer);

    // Unchanged since: the ETag answers 304 with no body.
    const again = await t.app.inject({
      url: `/api/v1/prices/${service}`,
      headers: { 'if-none-match': String(open.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const unknown = await t.app.inject({ url: '/api/v1/prices/no-such-service' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'unknown_service' });
  });
});

import { describe, expect, it } from 'vitest';
import { LANDING_SERVICE_CODES, landingServices } from './landing-services';

describe('the landing page services', () => {
  it("are the spec's 18, in the spec's order, from the catalogue", () => {
    expect(LANDING_SERVICE_CODES).toEqual([
      'go',
      'fb',
      'ig',
      'tg',
      'tw',
      'mm',
      'wa',
      'vi',
      'mb',
      'oi',
      'wb',
      'vk',
      'ok',
      'ub',
      'uk',
      'qw',
      'sn',
      'mg',
    ]);
    expect(landingServices.map((service) => service.code)).toEqual(LANDING_SERVICE_CODES);
    for (const service of landingServices) expect(service.name).not.toBe('');
  });

  it('each have a brand mark, except the two no licensed icon set carries', () => {
    expect(landingServices.filter((service) => !service.icon).map((service) => service.name)).toEqual([
      'OLX',
      'Magnit',
    ]);
  });
});

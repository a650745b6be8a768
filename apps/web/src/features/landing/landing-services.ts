import { type Service, serviceByCode } from '@simcode/contract';

/** The services the landing page shows, in the spec's order (section 2, Landing page). */
export const LANDING_SERVICE_CODES = [
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
] as const;

export const landingServices: readonly Service[] = LANDING_SERVICE_CODES.map((code) => {
  const service = serviceByCode(code);
  // The catalogue is the one list of services: a code missing from it fails the build's prerender.
  if (!service) throw new Error(`The service catalogue has no '${code}'`);
  return service;
});

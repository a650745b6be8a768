import { createIdTranslator } from '../../providers/sms/sms-activate/provider-ids';

export { saDateTime } from '../../providers/sms/simulator/handler-api';

/**
 * Our public protocol speaks SMS-Activate's own ids: numeric countries and its service codes, by the same
 * table the upstream adapter translates with (with no provider-specific corrections: these are the
 * protocol's defaults, whatever our upstream is).
 */
const translator = createIdTranslator();

export const protocolIds = {
  /** SMS-Activate country id of an ISO code; -1 for a country the protocol has no id for. */
  countryOf(iso: string): number {
    const id = translator.countryFromIso(iso);
    return id === undefined ? -1 : Number(id);
  },
  isoOf(protocolCountry: string): string | undefined {
    return translator.countryToIso(protocolCountry);
  },
  serviceOf(canonical: string): string {
    return translator.serviceFromCanonical(canonical) ?? canonical;
  },
  canonicalOf(protocolService: string): string | undefined {
    return translator.serviceToCanonical(protocolService);
  },
};

import { DELIVERY_MIN_ORDERS, type DeliveryFigures } from '@simcode/contract';
import { i18n } from '@/i18n';
import { formatNumber } from '@/lib/format';

/**
 * SimCode's own delivery figures of an offer, as the buyer reads them beside the price. Too few settled
 * orders say nothing yet: such an offer is "new" rather than 100 % or 0 % on the strength of two orders.
 */
export function isNewOffer(delivery: DeliveryFigures | undefined): boolean {
  return !delivery || delivery.orders < DELIVERY_MIN_ORDERS;
}

/** The share of orders that got a code, 0–100, or null for a new offer (sorting puts those last). */
export function deliveryRate(delivery: DeliveryFigures | undefined): number | null {
  if (!delivery || isNewOffer(delivery)) return null;
  return Math.round((delivery.delivered / delivery.orders) * 100);
}

/** The median seconds to the code, or null when unknown (a new offer, or no code delivered). */
export function secondsToCode(delivery: DeliveryFigures | undefined): number | null {
  if (!delivery || isNewOffer(delivery)) return null;
  return delivery.median_seconds;
}

/** '94%', or 'new'. */
export function rateText(delivery: DeliveryFigures | undefined): string {
  const rate = deliveryRate(delivery);
  return rate === null ? i18n.t('dashboard:delivery.new') : i18n.t('dashboard:delivery.rate', { rate });
}

/** '~40 s', '~3 min', or null when unknown. Under a minute and a half it counts seconds. */
export function timeToCodeText(delivery: DeliveryFigures | undefined): string | null {
  const seconds = secondsToCode(delivery);
  if (seconds === null) return null;
  return seconds < 90
    ? i18n.t('dashboard:delivery.seconds', { value: formatNumber(seconds) })
    : i18n.t('dashboard:delivery.minutes', { value: formatNumber(Math.round(seconds / 60)) });
}

/** '94% · ~40 s' beside a price, or 'new'. */
export function deliveryText(delivery: DeliveryFigures | undefined): string {
  const time = timeToCodeText(delivery);
  return time === null
    ? rateText(delivery)
    : i18n.t('dashboard:delivery.both', { rate: rateText(delivery), time });
}

/** What the short figures mean, for a screen reader and a hover. */
export function deliveryDescription(delivery: DeliveryFigures | undefined): string {
  const rate = deliveryRate(delivery);
  if (rate === null) return i18n.t('dashboard:delivery.newHint');
  const time = timeToCodeText(delivery);
  return time === null
    ? i18n.t('dashboard:delivery.rateHint', { rate })
    : i18n.t('dashboard:delivery.bothHint', { rate, time });
}

import { PAYMENT_POPUP_HEIGHT_PX, PAYMENT_POPUP_WIDTH_PX } from '@simcode/contract';
import { i18n } from '@/i18n';

const POPUP_NAME = 'simcode-payment';

/** Window features for a 500x700 popup centred over the current browser window. */
function popupFeatures(
  screenLike: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'> = window,
): string {
  const left = Math.max(
    0,
    Math.round(screenLike.screenX + (screenLike.outerWidth - PAYMENT_POPUP_WIDTH_PX) / 2),
  );
  const top = Math.max(
    0,
    Math.round(screenLike.screenY + (screenLike.outerHeight - PAYMENT_POPUP_HEIGHT_PX) / 2),
  );
  return `popup=yes,width=${PAYMENT_POPUP_WIDTH_PX},height=${PAYMENT_POPUP_HEIGHT_PX},left=${left},top=${top}`;
}

/**
 * Opens the payment window. It must happen in the click itself (browsers block popups opened later), so
 * it opens empty, says it is preparing, and is sent to the payment page once the invoice exists.
 * Null when the browser blocked it.
 */
export function openPaymentPopup(): Window | null {
  const popup = window.open('', POPUP_NAME, popupFeatures());
  if (!popup) return null;
  try {
    // The payment page has no business with this page.
    popup.opener = null;
    const preparing = i18n.t('topup:payment.preparing');
    popup.document.title = preparing;
    popup.document.body.style.cssText =
      'font:16px system-ui,sans-serif;color:#5b6475;display:grid;place-items:center;min-height:90vh;margin:0';
    popup.document.body.textContent = preparing;
  } catch {
    // A window of that name already shows the payment page (another origin): it is simply reused.
  }
  return popup;
}

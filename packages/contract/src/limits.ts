/**
 * Business constants of the product (spec section 9). Both apps import these, so a rule changes in one place.
 * Durations carry their unit in the name.
 */
export const USERNAME_MIN_LENGTH = 3;
/** Usernames of 20 or more characters are refused ('less than 20'). */
export const USERNAME_MAX_LENGTH = 19;
export const PASSWORD_MIN_LENGTH = 8;
/** Passwords of 80 or more characters are refused ('less than 80'). */
export const PASSWORD_MAX_LENGTH = 79;
/** E-mails of 80 or more characters are refused ('less than 80'). */
export const EMAIL_MAX_LENGTH = 79;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;

export const IDLE_LOGOUT_MS = 30 * 60 * 1000;
export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
export const ADMIN_ROLE = 1;
export const USER_ROLE = 0;

export const NAVBAR_COMPACT_SCROLL_PX = 50;
export const SCROLL_TOP_BUTTON_PX = 200;
export const ANCHOR_SCROLL_OFFSET_PX = 80;
export const STATS_COUNT_UP_MS = 2000;

export const ACTIVATION_LIFETIME_MS = 20 * 60 * 1000;
export const NUMBERS_REFRESH_MS = 20_000;
export const RENTS_REFRESH_MS = 30_000;
export const TICKETS_REFRESH_MS = 10_000;

export const MIN_TOPUP_CENTS = 500;
export const TOPUP_STATUS_POLL_MS = 4000;
export const PAYMENT_POPUP_WIDTH_PX = 500;
export const PAYMENT_POPUP_HEIGHT_PX = 700;
export const PAYMENT_SUCCESS_REDIRECT_MS = 1500;

export const LOW_BALANCE_THRESHOLD_CENTS = 100;
export const DASHBOARD_LIST_PANE_PX = 500;

/**
 * Every path of the HTTP API, as data: the web app calls the API through this table, never through a
 * written path, so a route that moves moves in one place. A path with parameters is a function of them,
 * each encoded for the URL. Query strings are not part of a path: callers pass them apart.
 */

type Id = number | string;

const segment = (value: Id) => encodeURIComponent(String(value));

const dashboard = '/api/dashboard';
const admin = '/api/admin';
const tickets = '/api/tickets';
const apiKeys = `${dashboard}/api-keys`;

export const apiPaths = {
  publicConfig: '/api/public-config',
  captchaChallenge: '/api/captcha/challenge',

  auth: {
    register: '/api/auth/register',
    login: '/api/auth/login',
    loginTwoFactor: '/api/auth/login/two-factor',
    logout: '/api/auth/logout',
    logoutAll: '/api/auth/logout-all',
    forgotPassword: '/api/auth/password/forgot',
    resetPassword: '/api/auth/password/reset',
    confirmEmail: '/api/auth/email/confirm',
  },

  account: {
    account: '/api/account',
    password: '/api/account/password',
    email: '/api/account/email',
    twoFactorSetup: '/api/account/two-factor/setup',
    twoFactorEnable: '/api/account/two-factor/enable',
    twoFactorDisable: '/api/account/two-factor/disable',
    recoveryCodes: '/api/account/two-factor/recovery-codes',
    notifications: '/api/account/notifications',
    buying: '/api/account/buying',
    language: '/api/account/language',
    sessions: '/api/account/sessions',
    session: (id: Id) => `/api/account/sessions/${segment(id)}`,
  },

  dashboard: {
    summary: `${dashboard}/summary`,
    events: `${dashboard}/events`,
    countries: `${dashboard}/countries`,
    services: `${dashboard}/services`,
    serviceCountries: `${dashboard}/service-countries`,
    favourites: `${dashboard}/favourites`,
    ledger: `${dashboard}/ledger`,
    ledgerCsv: `${dashboard}/ledger.csv`,
  },

  numbers: {
    buy: `${dashboard}/buy-number`,
    list: `${dashboard}/numbers`,
    /** By the upstream's number id, as the spec's status call is. */
    status: (numberId: Id) => `${dashboard}/number-status/${segment(numberId)}`,
    cancel: (id: Id) => `${dashboard}/numbers/${segment(id)}/cancel`,
    /** Done with a number that got its code: it is freed upstream, the code stays in the history. */
    finish: (id: Id) => `${dashboard}/numbers/${segment(id)}/finish`,
    repeat: (id: Id) => `${dashboard}/numbers/${segment(id)}/repeat`,
    anotherSms: (id: Id) => `${dashboard}/numbers/${segment(id)}/another-sms`,
    report: (id: Id) => `${dashboard}/numbers/${segment(id)}/report`,
    money: (id: Id) => `${dashboard}/numbers/${segment(id)}/money`,
  },

  rents: {
    rent: `${dashboard}/rent-number`,
    list: `${dashboard}/rents`,
    countries: `${dashboard}/rent-countries`,
    services: `${dashboard}/rent-services`,
    /** By the rent's order id, as the spec's status call is. */
    status: (orderId: Id) => `${dashboard}/rent-status/${segment(orderId)}`,
    cancel: (orderId: Id) => `${dashboard}/rents/${segment(orderId)}/cancel`,
    repeat: (orderId: Id) => `${dashboard}/rents/${segment(orderId)}/repeat`,
    renewPrice: (orderId: Id) => `${dashboard}/rents/${segment(orderId)}/renew-price`,
    renew: (orderId: Id) => `${dashboard}/rents/${segment(orderId)}/renew`,
    autoRenew: (orderId: Id) => `${dashboard}/rents/${segment(orderId)}/auto-renew`,
    money: (id: Id) => `${dashboard}/rents/${segment(id)}/money`,
  },

  apiKeys: {
    list: apiKeys,
    key: (id: Id) => `${apiKeys}/${segment(id)}`,
    revoke: (id: Id) => `${apiKeys}/${segment(id)}/revoke`,
    resume: (id: Id) => `${apiKeys}/${segment(id)}/resume`,
    log: (id: Id) => `${apiKeys}/${segment(id)}/log`,
    testDelivery: (id: Id) => `${apiKeys}/${segment(id)}/test-delivery`,
  },

  topup: {
    payments: '/api/topup/payments',
    createInvoice: '/api/topup/cryptomus/create-invoice',
    methods: '/api/topup/methods',
    depositAddresses: '/api/topup/deposit-addresses',
    status: '/api/topup/cryptomus/status',
  },

  tickets: {
    list: tickets,
    /** How many of your tickets hold an answer you have not read. */
    unread: `${tickets}/unread`,
    ticket: (id: Id) => `${tickets}/${segment(id)}`,
    messages: (id: Id) => `${tickets}/${segment(id)}/messages`,
    close: (id: Id) => `${tickets}/${segment(id)}/close`,
  },

  /** Support's side of the tickets: every user's tickets, their status, deleting one, its author. */
  adminTickets: {
    list: `${tickets}/admin/tickets`,
    ticket: (id: Id) => `${tickets}/admin/tickets/${segment(id)}`,
    messages: (id: Id) => `${tickets}/admin/tickets/${segment(id)}/messages`,
    close: (id: Id) => `${tickets}/admin/tickets/${segment(id)}/close`,
    status: (id: Id) => `${tickets}/admin/tickets/${segment(id)}/status`,
    user: (userId: Id) => `${tickets}/admin/user/${segment(userId)}`,
  },

  admin: {
    overview: `${admin}/overview`,
    audit: `${admin}/audit`,
    users: `${admin}/users`,
    user: (id: Id) => `${admin}/users/${segment(id)}`,
    userLedger: (id: Id) => `${admin}/users/${segment(id)}/ledger`,
    userAdjustments: (id: Id) => `${admin}/users/${segment(id)}/adjustments`,
    userBlock: (id: Id) => `${admin}/users/${segment(id)}/block`,
    userUnblock: (id: Id) => `${admin}/users/${segment(id)}/unblock`,
    userRole: (id: Id) => `${admin}/users/${segment(id)}/role`,
    userTwoFactorReset: (id: Id) => `${admin}/users/${segment(id)}/two-factor/reset`,
    userSignOut: (id: Id) => `${admin}/users/${segment(id)}/sign-out`,
    orders: `${admin}/orders`,
    order: (id: Id) => `${admin}/orders/${segment(id)}`,
    orderRefund: (id: Id) => `${admin}/orders/${segment(id)}/refund`,
    orderCancelUpstream: (id: Id) => `${admin}/orders/${segment(id)}/cancel-upstream`,
    orderProblem: (id: Id) => `${admin}/orders/${segment(id)}/problem`,
    rents: `${admin}/rents`,
    rent: (id: Id) => `${admin}/rents/${segment(id)}`,
    rentRefund: (id: Id) => `${admin}/rents/${segment(id)}/refund`,
    payments: `${admin}/payments`,
    payment: (id: Id) => `${admin}/payments/${segment(id)}`,
    paymentReconcile: (id: Id) => `${admin}/payments/${segment(id)}/reconcile`,
    paymentCredit: (id: Id) => `${admin}/payments/${segment(id)}/credit`,
    paymentProviders: `${admin}/payments/providers`,
    pricing: `${admin}/pricing`,
    pricingPreview: `${admin}/pricing/preview`,
    providers: `${admin}/providers`,
    providerRouting: (name: string) => `${admin}/providers/${segment(name)}/routing`,
    reconciliation: `${admin}/reconciliation`,
    reconciliationCsv: `${admin}/reconciliation.csv`,
    reconciliationRun: `${admin}/reconciliation/run`,
    reconciliationMismatch: (id: Id) => `${admin}/reconciliation/mismatches/${segment(id)}`,
    alerts: `${admin}/alerts`,
    alertChannels: `${admin}/alerts/channels`,
    alertChannel: (id: Id) => `${admin}/alerts/channels/${segment(id)}`,
    alertSettings: `${admin}/alerts/settings`,
  },
} as const;

/**
 * Every query key of the app, defined once. A key is the prefix of the keys below it, so invalidating a
 * list's key (`numbers.all`) reaches its filtered pages too; the live updates and the mutations name what
 * they make stale through here, never through a written key.
 */

/** A list's filters as a key's last part: the query is asked again when any of them changes. */
type Filters = object;

export const queryKeys = {
  /** The balance and the counts beside it. */
  summary: ['summary'] as const,

  catalog: {
    countries: ['countries'] as const,
    /** Every operator's offers of a country. */
    servicesIn: (countryId: string) => ['services', countryId] as const,
    services: (countryId: string, operator: string) => ['services', countryId, operator] as const,
    serviceCountries: (service: string) => ['service-countries', service] as const,
    favourites: ['favourites'] as const,
  },

  numbers: {
    all: ['numbers'] as const,
    live: ['numbers', 'live'] as const,
    history: (filters: Filters) => ['numbers', 'history', filters] as const,
    statuses: ['number-status'] as const,
    status: (numberId: string) => ['number-status', numberId] as const,
  },

  rents: {
    all: ['rents'] as const,
    statuses: ['rent-status'] as const,
    status: (orderId: string) => ['rent-status', orderId] as const,
    countries: ['rent-countries'] as const,
    services: (countryCode: string, hours: number) => ['rent-services', countryCode, hours] as const,
    renewPrice: (orderId: string, hours: number) => ['rent-renew-price', orderId, hours] as const,
  },

  money: {
    ledger: ['ledger'] as const,
    ledgerPages: (filters: Filters) => ['ledger', filters] as const,
    /** The money of single orders and rents (price, entries, refund reason). */
    orders: ['order-money'] as const,
    order: (kind: 'number' | 'rent', id: number) => ['order-money', kind, id] as const,
  },

  topups: {
    all: ['topups'] as const,
    status: (orderId: string) => ['topup-status', orderId] as const,
    methods: ['topup-methods'] as const,
  },

  account: {
    all: ['account'] as const,
    details: ['account', 'details'] as const,
    sessions: ['account', 'sessions'] as const,
  },

  apiKeys: {
    all: ['api-keys'] as const,
    list: ['api-keys', 'list'] as const,
    log: (id: number) => ['api-keys', 'log', id] as const,
  },

  /** Outside 'tickets': the navigation's count, refetched by the tickets event like the lists. */
  unreadTickets: ['unread-tickets'] as const,
  tickets: {
    all: ['tickets'] as const,
    list: (scope: string, sort: string) => ['tickets', scope, 'list', sort] as const,
    thread: (scope: string, id: number) => ['tickets', scope, 'thread', id] as const,
    /** Outside 'tickets' on purpose: a user's name and e-mail are not refetched after ticket changes. */
    user: (userId: number) => ['ticket-user', userId] as const,
  },

  /** Every console query starts with 'admin': an action asks all of them again (one object touches many). */
  admin: {
    all: ['admin'] as const,
    access: ['admin', 'access'] as const,
    overview: (days: number) => ['admin', 'overview', days] as const,
    users: (q: string) => ['admin', 'users', q] as const,
    user: (id: number) => ['admin', 'user', id] as const,
    ledger: (userId: number) => ['admin', 'ledger', userId] as const,
    orders: (filters: Filters) => ['admin', 'orders', filters] as const,
    order: (id: number) => ['admin', 'order', id] as const,
    rents: (filters: Filters) => ['admin', 'rents', filters] as const,
    rent: (id: number) => ['admin', 'rent', id] as const,
    payments: (filters: Filters) => ['admin', 'payments', filters] as const,
    payment: (id: number) => ['admin', 'payment', id] as const,
    pricing: ['admin', 'pricing'] as const,
    providers: ['admin', 'providers'] as const,
    reconciliation: (from: string, to: string) => ['admin', 'reconciliation', from, to] as const,
    alerts: ['admin', 'alerts'] as const,
    audit: (filters: Filters) => ['admin', 'audit', filters] as const,
  },
};

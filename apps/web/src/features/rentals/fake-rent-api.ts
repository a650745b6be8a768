// An in-memory stand-in for the rent endpoints, for the component tests (never part of the app bundle).
import { type Rent, type RentServiceOffer, type RentStatusResponse, rentMessages } from '@simcode/contract';
import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
}

export function aRent(overrides: Partial<Rent> & Pick<Rent, 'id'>): Rent {
  return {
    order_id: String(26_250_000 + overrides.id),
    country: 'United States',
    country_id: 'US',
    service: { key: 'opt29', name: 'Telegram' },
    number: '12025550123',
    created_at: '2026-03-01T10:00:00.000Z',
    end_date: '2026-03-02T10:00:00.000Z',
    status: 'active',
    status_reason: null,
    period: '24 hours',
    hours: 24,
    renewable: false,
    auto_renew: false,
    auto_renew_error: null,
    renewal_pending: false,
    price: 6.24,
    ...overrides,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers the rent endpoints from fixed data; POSTs are recorded and answered with success unless told. */
export function createFakeRentApi(options: {
  rents?: Rent[];
  statuses?: Record<string, RentStatusResponse>;
  balance?: number;
  services?: Record<string, RentServiceOffer>;
  renewPrice?: number;
  failures?: Record<string, { status: number; error: string }>;
}) {
  const rents = [...(options.rents ?? [])];
  const calls: RecordedCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, query: url.searchParams, body });
    const failure = options.failures?.[`${method} ${url.pathname}`];
    if (failure) return json(failure.status, { success: false, error: failure.error });
    const path = url.pathname;
    if (path === '/api/dashboard/summary') {
      return json(200, {
        success: true,
        balance: options.balance ?? 50,
        totalNumbers: 0,
        totalOrders: 0,
        totalCountries: 100,
      });
    }
    if (path === '/api/dashboard/rents') return json(200, { success: true, rents });
    if (path === '/api/dashboard/rent-countries') {
      return json(200, {
        success: true,
        countries: [
          { code: 'GB', name: 'United Kingdom', dialCode: '44' },
          { code: 'US', name: 'United States', dialCode: '1' },
        ],
      });
    }
    if (path === '/api/dashboard/rent-services') {
      return json(200, {
        success: true,
        services: options.services ?? {
          opt29: { name: 'Telegram', price: 6.24, count: 63, img: 'telegram' },
          opt20: { name: 'WhatsApp', price: 6.41, count: 0, img: 'whatsapp' },
        },
      });
    }
    const status = /^\/api\/dashboard\/rent-status\/(.+)$/.exec(path);
    if (status) {
      return json(
        200,
        options.statuses?.[status[1]!] ?? {
          status: 'error',
          message: 'STATUS_WAIT_CODE',
          values: [],
          error: null,
        },
      );
    }
    if (/\/renew-price$/.test(path)) {
      return json(200, {
        success: true,
        periodID: Number(url.searchParams.get('periodID')),
        price: options.renewPrice ?? 0.65,
      });
    }
    const action = /^\/api\/dashboard\/rents\/([^/]+)\/([a-z-]+)$/.exec(path);
    if (method === 'POST' && (action || path === '/api/dashboard/rent-number')) {
      const rent = rents.find((entry) => entry.order_id === action?.[1]) ?? rents[0] ?? aRent({ id: 99 });
      return json(200, { success: true, rent });
    }
    return json(404, { success: false, error: rentMessages.fetchRentsFailed });
  });
  return { fetch, calls, posts: () => calls.filter((call) => call.method === 'POST') };
}

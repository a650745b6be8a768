// The rent endpoints over fixed data: POSTs are recorded and answered with success unless a failure is set.
import {
  type Rent,
  type RentServiceOffer,
  type RentStatusResponse,
  renewPriceResponseSchema,
  rentCountriesResponseSchema,
  rentResponseSchema,
  rentServicesResponseSchema,
  rentStatusResponseSchema,
  rentsResponseSchema,
  summaryResponseSchema,
} from '@simcode/contract';
import { createFakeApi, ok, refuse, route } from '../fake-api';

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
    sms_received: false,
    price: 6.24,
    ...overrides,
  };
}

export function createFakeRentApi(options: {
  rents?: Rent[];
  statuses?: Record<string, RentStatusResponse>;
  balance?: number;
  services?: Record<string, RentServiceOffer>;
  renewPrice?: number;
  /** `'<METHOD> <path>'` → the refusal that call answers. */
  failures?: Record<string, { status: number; error: string }>;
}) {
  const rents = [...(options.rents ?? [])];
  /** A rent action answers the rent it acted on (the first one for a new rent). */
  const actedOn = (orderId?: string) =>
    ok(rentResponseSchema, {
      success: true,
      rent: rents.find((entry) => entry.order_id === orderId) ?? rents[0] ?? aRent({ id: 99 }),
    });
  const failures = Object.entries(options.failures ?? {}).map(([line, { status, error }]) =>
    route(line, () => refuse(status, error)),
  );
  const api = createFakeApi([
    ...failures,
    route('GET /api/dashboard/summary', () =>
      ok(summaryResponseSchema, {
        success: true,
        balance: options.balance ?? 50,
        totalNumbers: 0,
        totalOrders: 0,
        totalCountries: 100,
        liveOneTime: 0,
        liveRented: 0,
      }),
    ),
    route('GET /api/dashboard/rents', () => ok(rentsResponseSchema, { success: true, rents })),
    route('GET /api/dashboard/rent-countries', () =>
      ok(rentCountriesResponseSchema, {
        success: true,
        countries: [
          { code: 'GB', name: 'United Kingdom', dialCode: '44' },
          { code: 'US', name: 'United States', dialCode: '1' },
        ],
      }),
    ),
    route('GET /api/dashboard/rent-services', () =>
      ok(rentServicesResponseSchema, {
        success: true,
        services: options.services ?? {
          opt29: { name: 'Telegram', price: 6.24, count: 63, img: 'telegram' },
          opt20: { name: 'WhatsApp', price: 6.41, count: 0, img: 'whatsapp' },
        },
      }),
    ),
    route(/^GET \/api\/dashboard\/rent-status\/(.+)$/, ({ params }) =>
      ok(
        rentStatusResponseSchema,
        options.statuses?.[params[0]!] ?? {
          status: 'error',
          message: 'STATUS_WAIT_CODE',
          values: [],
          error: null,
        },
      ),
    ),
    route(/^GET \/api\/dashboard\/rents\/[^/]+\/renew-price$/, ({ query }) =>
      ok(renewPriceResponseSchema, {
        success: true,
        periodID: Number(query.get('periodID')),
        price: options.renewPrice ?? 0.65,
      }),
    ),
    route(/^POST \/api\/dashboard\/rents\/([^/]+)\/[a-z-]+$/, ({ params }) => actedOn(params[0])),
    route('POST /api/dashboard/rent-number', () => actedOn()),
  ]);
  return { ...api, posts: () => api.calls.filter((call) => call.method === 'POST') };
}

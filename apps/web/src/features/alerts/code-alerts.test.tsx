import { numbersResponseSchema, type PurchasedNumber } from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, route } from '@test/fake-api';
import { render, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '@/lib/event-stream';
import CodeAlerts from './code-alerts';

vi.mock('sonner', () => ({ toast: { success: vi.fn() } }));
vi.mock('./chime', () => ({ playChime: vi.fn(), unlockAudioOnInteraction: () => () => {} }));
// The stream is the test's: it pushes the events one by one.
let push: (event: StreamEvent) => void = () => {};
vi.mock('@/lib/event-stream', () => ({
  RESYNC: 'resync',
  subscribeToLiveEvents: (listener: (event: StreamEvent) => void) => {
    push = listener;
    return () => {};
  },
}));

function number(id: number, service: string, codes: string[]): PurchasedNumber {
  return {
    id,
    number_id: `a${id}`,
    country: 'US',
    country_name: 'United States',
    service: 'tg',
    service_name: service,
    operator: 'any',
    number: `1202555010${id}`,
    price: 0.5,
    created_at: '2026-11-20T12:00:00.000Z',
    expires_at: '2026-11-20T12:20:00.000Z',
    status: codes.length > 0 ? 'received' : 'waiting',
    status_reason: null,
    code: codes.at(-1) ?? null,
    sms: codes.map((code) => ({ code, text: `Your code is ${code}`, received_at: '2026-11-20T12:01:00Z' })),
  };
}

/** The live numbers the next look finds. */
let live: PurchasedNumber[];
let api: FakeApi;

beforeEach(() => {
  live = [number(1, 'Telegram', [])];
  api = createFakeApi([
    route('GET /api/dashboard/numbers', () =>
      ok(numbersResponseSchema, { success: true, numbers: live, next_before: null }),
    ),
  ]);
  vi.mocked(toast.success).mockClear();
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => vi.unstubAllGlobals());

/** Renders the alerts and waits for their first look at the live numbers. */
async function renderAlerts() {
  render(<CodeAlerts />);
  await waitFor(() => expect(api.calls).toHaveLength(1));
  expect(String(api.fetch.mock.calls[0]![0])).toBe('/api/dashboard/numbers?state=live&limit=100');
}

describe('code alerts', () => {
  it('announce a code the event names at once, without asking the server, and only once', async () => {
    await renderAlerts();
    push({ type: 'numbers', data: { order_id: 1, code: '48213' } });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Telegram code: 48213'));
    expect(api.calls).toHaveLength(1);

    // A later event without details looks again: the list now has the SMS, which is not news any more.
    live = [number(1, 'Telegram', ['48213'])];
    push({ type: 'numbers', data: {} });
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(toast.success).toHaveBeenCalledTimes(1);
  });

  it('look at the live numbers when the event does not say which number got which code', async () => {
    await renderAlerts();
    live = [number(1, 'Telegram', ['111111'])];
    push({ type: 'numbers', data: {} });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Telegram code: 111111'));
    expect(api.calls).toHaveLength(2);
  });

  it('look when the event names a number bought since the last look', async () => {
    await renderAlerts();
    live = [number(1, 'Telegram', []), number(2, 'WhatsApp', ['222222'])];
    push({ type: 'numbers', data: { order_id: 2, code: '222222' } });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('WhatsApp code: 222222'));
    expect(api.calls).toHaveLength(2);
  });
});

import { summaryResponseSchema } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import { createFakeApi, ok, refuse, route, unchecked } from './fake-api';

describe('the fake API', () => {
  it('refuses to answer what the contract does not describe', () => {
    const drifted = { success: true, balance: '3.50', totalNumbers: 0, totalOrders: 0, totalCountries: 1 };
    expect(() => ok(summaryResponseSchema, drifted as never)).toThrow();
    expect(() => refuse(400, undefined as never)).toThrow();
    expect(unchecked(500, { success: false })).toEqual({ status: 500, body: { success: false } });
  });

  it('answers by route, records each call, and takes scripted answers and failures first', async () => {
    const summary = {
      success: true as const,
      balance: 3.5,
      totalNumbers: 0,
      totalOrders: 0,
      totalCountries: 1,
      liveOneTime: 0,
      liveRented: 0,
    };
    const api = createFakeApi([
      route('GET /api/dashboard/summary', () => ok(summaryResponseSchema, summary)),
    ]);
    const get = async () => {
      const response = await api.fetch('/api/dashboard/summary?x=1');
      return { status: response.status, body: await response.json() };
    };
    expect(await get()).toEqual({ status: 200, body: summary });
    api.failNext('GET', /summary$/, refuse(503, 'Try again.'));
    expect(await get()).toEqual({ status: 503, body: { success: false, error: 'Try again.' } });
    api.answerNext('network');
    await expect(get()).rejects.toThrow(TypeError);
    expect((await api.fetch('/api/nowhere', { method: 'POST', body: '{"a":1}' })).status).toBe(404);
    expect(api.calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'GET', path: '/api/dashboard/summary', body: undefined },
      { method: 'GET', path: '/api/dashboard/summary', body: undefined },
      { method: 'GET', path: '/api/dashboard/summary', body: undefined },
      { method: 'POST', path: '/api/nowhere', body: { a: 1 } },
    ]);
    expect(api.calls[0]!.query.get('x')).toBe('1');
    expect(api.writes()).toHaveLength(1);
  });
});

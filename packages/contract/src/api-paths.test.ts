import { describe, expect, it } from 'vitest';
import { apiPaths } from './api-paths';

describe('apiPaths', () => {
  it('puts each parameter into its path as one encoded segment', () => {
    expect(apiPaths.numbers.cancel(12)).toBe('/api/dashboard/numbers/12/cancel');
    expect(apiPaths.numbers.status('a/b c')).toBe('/api/dashboard/number-status/a%2Fb%20c');
    expect(apiPaths.rents.renewPrice('26250001')).toBe('/api/dashboard/rents/26250001/renew-price');
    expect(apiPaths.admin.providerRouting('sms-bower')).toBe('/api/admin/providers/sms-bower/routing');
    expect(apiPaths.adminTickets.user(3)).toBe('/api/tickets/admin/user/3');
  });

  it('names every endpoint once', () => {
    const paths: string[] = [];
    const collect = (table: object) => {
      for (const entry of Object.values(table)) {
        if (typeof entry === 'string') paths.push(entry);
        else if (typeof entry === 'function') paths.push(entry(':id'));
        else collect(entry);
      }
    };
    collect(apiPaths);
    expect(paths.every((path) => path.startsWith('/api/'))).toBe(true);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

import { describe, expect, it } from 'vitest';
import { afterSignInPath } from './use-auth-submit';

describe('where a sign-in goes', () => {
  it('follows `next` to a page of the dashboard only, never elsewhere', () => {
    expect(afterSignInPath('')).toBe('/dashboard');
    expect(afterSignInPath('?next=%2Fdashboard%3Fservice%3Dtg')).toBe('/dashboard?service=tg');
    expect(afterSignInPath('?next=/dashboard/numbers')).toBe('/dashboard/numbers');
    for (const hostile of [
      'https://evil.test/dashboard',
      '//evil.test/dashboard',
      '/dashboard//evil.test',
      '/admin',
      '/dashboardx',
    ])
      expect(afterSignInPath(`?next=${encodeURIComponent(hostile)}`)).toBe('/dashboard');
  });
});

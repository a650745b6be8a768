import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCountUp } from '@/lib/count-up';
import { StatsSection } from './stats-section';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the landing figures', () => {
  it('hydrate without a mismatch after the bootstrap started their count-up on the prerendered page', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<StatsSection />);
    document.body.append(container);
    // What main.tsx does before the app loads: the count-up marks its list (data-count-up) and owns the text.
    const list = container.querySelector<HTMLElement>('dl:has([data-stat])')!;
    startCountUp(list);
    expect(list.dataset.countUp).toBeDefined();

    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await act(async () => {
      hydrateRoot(container, <StatsSection />);
    });
    const mismatches = errors.mock.calls
      .map((call) => call.map(String).join(' '))
      .filter((text) => /hydrat|match/i.test(text));
    expect(mismatches).toEqual([]);
  });
});

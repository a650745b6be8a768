import { describe, expect, it } from 'vitest';
import { statusComponents } from './components';

// Issue 30: suppliers are anonymous on the status page unless the operator names them.

describe("the status page's components", () => {
  it('labels suppliers by letter in pool order, and shows a name only the operator gave', () => {
    const components = statusComponents(['sim-a', 'sim-b', 'fivesim'], 'sim-b=Globex, =Nobody,broken', true);
    expect(components).toEqual([
      { id: 'web', name: 'Website' },
      { id: 'api', name: 'API' },
      { id: 'payments', name: 'Payments' },
      { id: 'supplier-a', name: 'Supplier A', supplier: 'sim-a' },
      { id: 'supplier-b', name: 'Globex', supplier: 'sim-b' },
      { id: 'supplier-c', name: 'Supplier C', supplier: 'fivesim' },
    ]);
  });

  it('has no website component on an instance that serves no web app', () => {
    expect(statusComponents(['sim-a'], '', false).map((component) => component.id)).toEqual([
      'api',
      'payments',
      'supplier-a',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { CallBudget } from './call-budget';
import { ManualClock } from './clock';

/** Takes calls for `owner` until the budget refuses; returns how many it got. */
function takeAll(budget: CallBudget, owner: string): number {
  let taken = 0;
  while (budget.tryTake(owner)) taken += 1;
  return taken;
}

describe('CallBudget', () => {
  it('allows at most its calls in any minute, and more once the minute has passed', () => {
    const clock = new ManualClock();
    const budget = new CallBudget(5, clock);
    expect(takeAll(budget, 'a')).toBe(5);
    clock.advance(59_999);
    expect(budget.tryTake('a')).toBe(false);
    clock.advance(1);
    expect(takeAll(budget, 'a')).toBe(5);
    expect(budget.used).toBe(10);
  });

  it("keeps a claimed share for its claimant: a busy job cannot take another's", () => {
    const clock = new ManualClock();
    const budget = new CallBudget(20, clock);
    budget.claim('rentals', 6);
    expect(takeAll(budget, 'activations')).toBe(14);
    expect(takeAll(budget, 'rentals')).toBe(6);
  });

  it('counts what the claimant already used against its claim, and frees a claim not renewed', () => {
    const clock = new ManualClock();
    const budget = new CallBudget(20, clock);
    budget.claim('rentals', 6);
    expect(budget.tryTake('rentals')).toBe(true);
    expect(budget.tryTake('rentals')).toBe(true);
    expect(budget.remaining('activations')).toBe(14);
    expect(budget.remaining('rentals')).toBe(18);
    clock.advance(60_000);
    expect(takeAll(budget, 'activations')).toBe(20);
  });
});

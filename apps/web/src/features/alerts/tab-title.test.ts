import { afterEach, describe, expect, it } from 'vitest';
import { clearTitleCode, showCodeInTitle } from './tab-title';

describe('the code in the tab title', () => {
  afterEach(clearTitleCode);

  it('stays in front when the page changes its title, until the user interacts with the page', async () => {
    document.title = 'Account | SimCode';
    showCodeInTitle('123456 · ');
    expect(document.title).toBe('123456 · Account | SimCode');

    document.title = 'My Numbers | SimCode';
    // The observer re-applies the code once the change is delivered to it, after this task.
    await new Promise((resolve) => setTimeout(resolve));
    expect(document.title).toBe('123456 · My Numbers | SimCode');
    window.dispatchEvent(new Event('pointerdown'));
    expect(document.title).toBe('My Numbers | SimCode');
  });

  it('shows only the latest code, and goes when the tab is shown again', () => {
    document.title = 'Top Up | SimCode';
    showCodeInTitle('111111 · ');
    showCodeInTitle('222222 · ');
    expect(document.title).toBe('222222 · Top Up | SimCode');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(document.title).toBe('Top Up | SimCode');
  });
});

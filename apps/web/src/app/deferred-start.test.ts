import { afterEach, describe, expect, it } from 'vitest';
import { firstInteraction } from './deferred-start';

/** Whether `promise` has settled once the events dispatched so far have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe('firstInteraction', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('is not the focus the browser gives an autofocus field at load, but typing into it is', async () => {
    document.body.innerHTML = '<form><input id="username" autofocus /><input id="password" /></form>';
    const started = firstInteraction();
    const username = document.getElementById('username')!;
    username.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(await settled(started)).toBe(false);

    username.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    expect(await settled(started)).toBe(true);
  });

  it('is a focus moved to any other field', async () => {
    document.body.innerHTML = '<form><input id="username" autofocus /><input id="password" /></form>';
    const started = firstInteraction();
    document.getElementById('password')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(await settled(started)).toBe(true);
  });

  it('is text a password manager puts into a field without a key', async () => {
    document.body.innerHTML = '<form><input id="username" autofocus /></form>';
    const started = firstInteraction();
    document.getElementById('username')!.dispatchEvent(new Event('input', { bubbles: true }));
    expect(await settled(started)).toBe(true);
  });
});

import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstInteraction, holdActionsUntil } from './deferred-start';

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

function SignInForm({ onSubmit }: { onSubmit(username: string, password: string): void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(username, password);
      }}
    >
      <input id="username" value={username} onChange={(event) => setUsername(event.target.value)} />
      <input id="password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <button type="submit">Sign In</button>
    </form>
  );
}

/** What a keystroke (or Playwright's fill) does to a field: the browser's own value setter, then `input`. */
function type(field: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, text);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('holdActionsUntil', () => {
  let root: Root | undefined;
  afterEach(() => {
    act(() => root?.unmount());
    document.body.innerHTML = '';
  });

  it('hands the app text typed before it attached, even when a field typed into after re-renders the form', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = renderToString(<SignInForm onSubmit={() => undefined} />);
    let settle = () => {};
    const interactive = new Promise<void>((resolve) => {
      settle = resolve;
    });
    holdActionsUntil(interactive, container);
    const field = (id: string) => container.querySelector<HTMLInputElement>(`#${id}`)!;

    // Typed into the prerendered HTML, before the app ran.
    type(field('username'), 'alice');
    const submitted = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, <SignInForm onSubmit={submitted} />);
    });
    // Typed after React attached but before the page is the app's: React re-renders the whole form.
    await act(async () => type(field('password'), 'secret'));
    // The click is held, then replayed with everything typed handed over.
    field('password').form!.querySelector('button')!.click();
    await act(async () => {
      settle();
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(submitted).toHaveBeenCalledWith('alice', 'secret');
    expect(field('username').value).toBe('alice');
  });
});

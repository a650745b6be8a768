let resolveInteractive = () => {};

/** Settles once the app has rendered (or hydrated) the page and run its effects: the page is the app's now. */
export const interactive = new Promise<void>((resolve) => {
  resolveInteractive = resolve;
});

/** Called by the root layout when it has mounted. Also marks the document, a hook for styles and tests. */
export function markInteractive(): void {
  document.documentElement.dataset.interactive = '';
  resolveInteractive();
}

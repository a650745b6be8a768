/**
 * Puts a code at the front of the tab title ('123456 · My Numbers | SimCode') until the user is back on the
 * page: the tab shown again, the window focused again, or a click or key press in it. A page changing its
 * title meanwhile (a navigation) keeps the code in front.
 */
let prefix: string | null = null;
let observer: MutationObserver | null = null;
let stopListening: (() => void) | null = null;

function apply() {
  if (prefix && !document.title.startsWith(prefix)) document.title = prefix + document.title;
}

export function clearTitleCode(): void {
  if (prefix && document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);
  prefix = null;
  observer?.disconnect();
  observer = null;
  stopListening?.();
  stopListening = null;
}

/** `label` is the code's part, worded by the caller ('123456 · '). */
export function showCodeInTitle(label: string): void {
  clearTitleCode();
  prefix = label;
  apply();
  observer = new MutationObserver(apply);
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  const onVisible = () => {
    if (document.visibilityState === 'visible') clearTitleCode();
  };
  const options = { capture: true } as const;
  window.addEventListener('focus', clearTitleCode);
  window.addEventListener('pointerdown', clearTitleCode, options);
  window.addEventListener('keydown', clearTitleCode, options);
  document.addEventListener('visibilitychange', onVisible);
  stopListening = () => {
    window.removeEventListener('focus', clearTitleCode);
    window.removeEventListener('pointerdown', clearTitleCode, options);
    window.removeEventListener('keydown', clearTitleCode, options);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

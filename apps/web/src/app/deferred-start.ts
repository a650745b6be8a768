/**
 * Signs that a visitor is engaging with the page (a click or a submission is one even without a pointer;
 * text put into a field without a key, by a password manager or an input method, is one too).
 */
const INTERACTIONS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'input',
  'wheel',
  'scroll',
  'click',
  'submit',
] as const;

/** Field types whose text a visitor types; the others carry no typing to hand over. */
const TEXT_INPUT =
  'input:not([type=checkbox],[type=radio],[type=file],[type=hidden],[type=submit],[type=button]),textarea';

/**
 * The focus the browser itself gives a page's `autofocus` field as the page loads (the sign-in form's first
 * field): not the visitor's doing, so it starts nothing. Typing into that field, or any other focus, does.
 */
function isAutofocus(event: Event): boolean {
  return (
    event.type === 'focusin' && event.target instanceof Element && event.target.hasAttribute('autofocus')
  );
}

/** Resolves on the visitor's first interaction with the page. */
export function firstInteraction(): Promise<void> {
  return new Promise((resolve) => {
    const options = { capture: true, passive: true } as const;
    const interacted = (event: Event) => {
      if (isAutofocus(event)) return;
      for (const type of INTERACTIONS) window.removeEventListener(type, interacted, options);
      resolve();
    };
    for (const type of INTERACTIONS) window.addEventListener(type, interacted, options);
  });
}

type TextField = HTMLInputElement | HTMLTextAreaElement;

/**
 * Hands text typed into a prerendered page's fields before the app ran over to the app. React attaches to
 * the fields without reading them, and puts its own (empty) state back on its next render, which a
 * keystroke into another field after it attached (and before the page was the app's) already causes: so
 * what was typed is the last text each field held during the hold (`typed`), or, for text put in without
 * an input event, what it holds now. Each field is then reported as changed: its initial text goes through
 * React's value tracker, the typed text past it, and an input event makes React read the difference as it
 * reads a keystroke (a field React already has is set to the same text again).
 */
function replayTypedText(root: ParentNode, typed: Map<TextField, string>) {
  const handOver = [...root.querySelectorAll<TextField>(TEXT_INPUT)]
    .map((field) => ({ field, text: typed.get(field) ?? field.value, initial: field.defaultValue }))
    .filter(({ text, initial }) => text !== initial);
  for (const { field, text, initial } of handOver) {
    const prototype =
      field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    field.value = initial;
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, text);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/**
 * Until `interactive` settles, holds what only the running app can do with a prerendered page: a click on a
 * button (a menu toggle, a dialog opener, a form's submit button) and a form submission, which the browser
 * would otherwise send itself, password included, as a query string. Then hands typed text over and replays
 * the last action held. Links, anchors, disclosure widgets and typing keep working natively meanwhile.
 */
export function holdActionsUntil(interactive: Promise<void>, root: ParentNode): void {
  let replay: (() => void) | null = null;
  const holdClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    replay = () => button.click();
  };
  const holdSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    const form = event.target as HTMLFormElement;
    replay = () => form.requestSubmit();
  };
  const typed = new Map<TextField, string>();
  const recordTyping = (event: Event) => {
    const field = event.target;
    if (field instanceof Element && field.matches(TEXT_INPUT))
      typed.set(field as TextField, (field as TextField).value);
  };
  document.addEventListener('click', holdClick, true);
  document.addEventListener('submit', holdSubmit, true);
  document.addEventListener('input', recordTyping, true);
  void interactive.then(() => {
    document.removeEventListener('click', holdClick, true);
    document.removeEventListener('submit', holdSubmit, true);
    document.removeEventListener('input', recordTyping, true);
    replayTypedText(root, typed);
    // After React has rendered the handed-over text: a submission must see it.
    if (replay) window.setTimeout(replay, 0);
  });
}

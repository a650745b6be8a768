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

/**
 * Hands text typed into a prerendered page's fields before the app ran over to the app. React attached to
 * the fields without reading them, and puts its own (empty) state back on its next render, which the first
 * handed-over field already causes: so all the typed text is read first. Each field is then reported as
 * changed: its initial text goes through React's value tracker, the typed text past it, and an input event
 * makes React read the difference as it reads a keystroke.
 */
function replayTypedText(root: ParentNode) {
  const typed = [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(TEXT_INPUT)]
    .map((field) => ({ field, text: field.value, initial: field.defaultValue }))
    .filter(({ text, initial }) => text !== initial);
  for (const { field, text, initial } of typed) {
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
  document.addEventListener('click', holdClick, true);
  document.addEventListener('submit', holdSubmit, true);
  void interactive.then(() => {
    document.removeEventListener('click', holdClick, true);
    document.removeEventListener('submit', holdSubmit, true);
    replayTypedText(root);
    // After React has rendered the handed-over text: a submission must see it.
    if (replay) window.setTimeout(replay, 0);
  });
}

import { type KeyboardEvent, useState } from 'react';

const ITEM_ATTRIBUTE = 'data-roving-item';
/** Rows of several controls (a star and a Buy button): up and down stay in the column, left and right cross it. */
const COLUMN_ATTRIBUTE = 'data-roving-column';
const STEPS: Record<string, 'previous' | 'next' | 'first' | 'last'> = {
  ArrowUp: 'previous',
  ArrowLeft: 'previous',
  ArrowDown: 'next',
  ArrowRight: 'next',
  Home: 'first',
  End: 'last',
};

/**
 * One Tab stop for a long list of controls (roving tabindex, WAI-ARIA Authoring Practices): Tab reaches
 * the last one used (or the first), the arrow keys, Home and End move between them, and the next Tab
 * leaves the list. `enabledIds` are the items that can take focus, in their order on screen; `selectedId`,
 * when given, is the Tab stop until another item has had focus.
 */
export function useRovingFocus(enabledIds: readonly string[], selectedId: string | null = null) {
  const [currentId, setCurrentId] = useState<string | null>(null);
  const tabStopId =
    [currentId, selectedId].find((id) => id !== null && enabledIds.includes(id)) ?? enabledIds[0] ?? null;

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const step = STEPS[event.key];
    if (!step) return;
    const column = (document.activeElement as HTMLElement | null)?.getAttribute(COLUMN_ATTRIBUTE);
    const vertical = event.key === 'ArrowUp' || event.key === 'ArrowDown';
    const items = [
      ...event.currentTarget.querySelectorAll<HTMLElement>(`[${ITEM_ATTRIBUTE}]:not(:disabled)`),
    ].filter((item) => !vertical || !column || item.getAttribute(COLUMN_ATTRIBUTE) === column);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (index === -1) return;
    event.preventDefault();
    const target = {
      previous: Math.max(0, index - 1),
      next: Math.min(items.length - 1, index + 1),
      first: 0,
      last: items.length - 1,
    }[step];
    items[target]?.focus();
  }

  return {
    listProps: { onKeyDown },
    /** `column` names the item's column in a list of rows with several controls each. */
    itemProps: (id: string, column?: string) => ({
      [ITEM_ATTRIBUTE]: '',
      ...(column ? { [COLUMN_ATTRIBUTE]: column } : {}),
      tabIndex: id === tabStopId ? 0 : -1,
      onFocus: () => setCurrentId(id),
    }),
  };
}

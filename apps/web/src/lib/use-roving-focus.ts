import { type KeyboardEvent, useState } from 'react';

const ITEM_ATTRIBUTE = 'data-roving-item';
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
    const items = [
      ...event.currentTarget.querySelectorAll<HTMLElement>(`[${ITEM_ATTRIBUTE}]:not(:disabled)`),
    ];
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
    itemProps: (id: string) => ({
      [ITEM_ATTRIBUTE]: '',
      tabIndex: id === tabStopId ? 0 : -1,
      onFocus: () => setCurrentId(id),
    }),
  };
}

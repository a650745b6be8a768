import { useRef } from 'react';

type AutoFocusHandler = ((event: Event) => void) | undefined;

/**
 * Radix dialogs give focus back to their Trigger when they close; one opened from code (a price
 * confirmation, a lazily loaded policy) has none, and focus fell to the start of the page. These handlers
 * give it back to whatever had focus when the dialog opened, if it is still there.
 */
export function useReturnFocus(onOpenAutoFocus: AutoFocusHandler, onCloseAutoFocus: AutoFocusHandler) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      // Called before focus moves into the dialog: the active element is what opened it.
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      onCloseAutoFocus?.(event);
      const target = opener.current;
      opener.current = null;
      if (event.defaultPrevented || !target?.isConnected) return;
      event.preventDefault();
      target.focus();
    },
  };
}

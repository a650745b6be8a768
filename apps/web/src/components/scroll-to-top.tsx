import { SCROLL_TOP_BUTTON_PX } from '@simcode/contract';
import { ArrowUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { scrollToTop } from '@/lib/scroll';
import { useScrolledPast } from '@/lib/use-scrolled-past';

/** Appears once the page is scrolled past the spec's threshold and takes the visitor back to the top. */
export function ScrollToTopButton() {
  const visible = useScrolledPast(SCROLL_TOP_BUTTON_PX);
  const { t } = useTranslation('common');
  if (!visible) return null;
  return (
    <button
      type="button"
      aria-label={t('scrollToTop')}
      onClick={() => {
        scrollToTop();
        // The button disappears at the top: keyboard focus continues from the start of the page instead.
        document.getElementById('content')?.focus({ preventScroll: true });
      }}
      className="fixed right-4 bottom-4 z-30 inline-flex size-11 animate-fade-in cursor-pointer items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg shadow-indigo-900/20 transition-colors hover:bg-primary-hover sm:right-6 sm:bottom-6"
    >
      <ArrowUp className="size-5" aria-hidden="true" />
    </button>
  );
}

import { SCROLL_TOP_BUTTON_PX } from '@simcode/contract';
import { ArrowUp } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scrollToTop } from '@/lib/scroll';
import { useScrolledPast } from '@/lib/use-scrolled-past';

/** The button's distance from the viewport's bottom edge, and from the footer once the footer shows. */
const GAP_PX = 16;

/**
 * How far the button must rise to stay above the site's footer: 0 while the footer is below the screen, the
 * footer's visible height once it scrolls in, so the button never covers the footer's links.
 */
function useRiseAboveFooter(): number {
  const [risePx, setRisePx] = useState(0);
  useEffect(() => {
    const footer = document.querySelector('footer');
    if (!footer) return;
    const update = () => setRisePx(Math.max(0, window.innerHeight - footer.getBoundingClientRect().top));
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);
  return risePx;
}

/**
 * Appears once the page is scrolled past the spec's threshold and takes the visitor back to the top. It
 * rides above the footer rather than over it.
 */
export function ScrollToTopButton() {
  const visible = useScrolledPast(SCROLL_TOP_BUTTON_PX);
  const risePx = useRiseAboveFooter();
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
      style={risePx > 0 ? { bottom: risePx + GAP_PX } : undefined}
      className="fixed right-4 bottom-4 z-30 inline-flex size-11 animate-fade-in cursor-pointer items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg shadow-indigo-900/20 transition-colors hover:bg-primary-hover sm:right-6 sm:bottom-6"
    >
      <ArrowUp className="size-5" aria-hidden="true" />
    </button>
  );
}

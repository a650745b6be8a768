import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * After a route change (not the first load, where the browser reads the new page itself), moves focus to
 * the new page's heading and announces it in a polite live region, as a full page load would: otherwise a
 * screen reader says nothing and the next Tab starts from the link that was followed. The page may render
 * its heading after the location changes (a lazily loaded or guarded page), so it is waited for.
 */
export function RouteAnnouncer({ contentId }: { contentId: string }) {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const previousPathname = useRef(pathname);

  useEffect(() => {
    if (previousPathname.current === pathname) return;
    previousPathname.current = pathname;
    const content = document.getElementById(contentId);
    if (!content) return;
    const focusHeading = () => {
      const heading = content.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      // A page that focuses a field of its own (the sign-in form) keeps it: that is where typing starts.
      const active = document.activeElement;
      if (!(active instanceof HTMLElement && active !== content && content.contains(active))) {
        // Focusable by script only: a heading is no Tab stop.
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      setAnnouncement(heading.textContent ?? document.title);
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(content, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, contentId]);

  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement}
    </div>
  );
}

import { publicPageOf } from '@simcode/contract';
import type { ComponentProps } from 'react';
import { useLocation } from 'react-router';
import { publicPath } from '@/i18n';
import { scrollToAnchor } from '@/lib/scroll';

/**
 * A link to a section of the home page in the current language. On the home page (in any language) it
 * scrolls there, leaving room for the fixed navigation bar; elsewhere it is a plain link home to that
 * section (whose scroll margin keeps the same offset when the browser jumps to it).
 */
export function AnchorLink({
  sectionId,
  onClick,
  ...props
}: Omit<ComponentProps<'a'>, 'href'> & { sectionId: string }) {
  const { pathname } = useLocation();
  return (
    <a
      href={publicPath(`/#${sectionId}`)}
      onClick={(event) => {
        if (publicPageOf(pathname)?.page === '/' && scrollToAnchor(sectionId)) {
          event.preventDefault();
          window.history.replaceState(window.history.state, '', `#${sectionId}`);
        }
        onClick?.(event);
      }}
      {...props}
    />
  );
}

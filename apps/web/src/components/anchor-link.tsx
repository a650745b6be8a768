import type { ComponentProps } from 'react';
import { useLocation } from 'react-router';
import { scrollToAnchor } from '@/lib/scroll';

/**
 * A link to a section of the home page. On the home page it scrolls there, leaving room for the fixed
 * navigation bar; elsewhere it is a plain link home to that section (whose scroll margin keeps the same
 * offset when the browser jumps to it).
 */
export function AnchorLink({
  sectionId,
  onClick,
  ...props
}: Omit<ComponentProps<'a'>, 'href'> & { sectionId: string }) {
  const { pathname } = useLocation();
  return (
    <a
      href={`/#${sectionId}`}
      onClick={(event) => {
        if (pathname === '/' && scrollToAnchor(sectionId)) {
          event.preventDefault();
          window.history.replaceState(window.history.state, '', `#${sectionId}`);
        }
        onClick?.(event);
      }}
      {...props}
    />
  );
}

import { type ReactNode, useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/utils';

function closeDisclosure(details: HTMLDetailsElement | null) {
  if (details) details.open = false;
}

/**
 * A small menu of the navigation bar (language, theme, alerts): a disclosure, so it opens without script on
 * a prerendered page. With the app, a click elsewhere or Escape closes it, as a menu would.
 */
export function NavbarMenu({
  label,
  summary,
  className,
  panelClassName,
  children,
}: {
  /** The button's name for assistive technology; the button shows `summary` (an icon, hidden from it). */
  label: string;
  summary: ReactNode;
  className?: string;
  panelClassName?: string;
  children: (close: () => void) => ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = () => closeDisclosure(ref.current);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) closeDisclosure(ref.current);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      closeDisclosure(ref.current);
      ref.current?.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <details
      ref={ref}
      className={cn('group relative', className)}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2 py-2 text-sm font-medium text-slate-600 hover:bg-accent hover:text-foreground [&::-webkit-details-marker]:hidden">
        {summary}
        {/* Read as the button's name; a name given as aria-label would not contain the visible 'EN'. */}
        <span className="sr-only">{label}</span>
      </summary>
      <div
        className={cn(
          'absolute top-full right-0 z-50 mt-1 min-w-36 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg',
          panelClassName,
        )}
      >
        {children(close)}
      </div>
    </details>
  );
}

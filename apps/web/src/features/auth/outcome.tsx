import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { cn } from '@/lib/utils';

/**
 * What a finished step of the signed-out account flow says (the server's sentence), with where to go
 * next. It replaces the form that was focused, so it takes the focus and is read out.
 */
export function Outcome({
  icon: Icon,
  message,
  tone = 'success',
  takeFocus = true,
  children,
}: {
  icon: LucideIcon;
  message: string;
  tone?: 'success' | 'warning';
  /** False when the page opens with it: the page's heading is then where reading starts. */
  takeFocus?: boolean;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when it appears.
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, []);
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <div
        ref={ref}
        tabIndex={-1}
        role="status"
        className={cn(
          'flex w-full flex-col items-center gap-2 rounded-lg border px-4 py-4 text-sm outline-none focus-visible:outline-2 focus-visible:outline-ring',
          tone === 'success'
            ? 'border-green-200 bg-success-soft text-green-950'
            : 'border-yellow-300 bg-warning-soft text-yellow-950',
        )}
      >
        <Icon
          className={cn('size-6', tone === 'success' ? 'text-green-700' : 'text-yellow-700')}
          aria-hidden="true"
        />
        <p className="leading-relaxed">{message}</p>
      </div>
      {children}
    </div>
  );
}

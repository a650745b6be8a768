import type * as React from 'react';
import { cn } from '@/lib/utils';

export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-slate-200/70', className)}
      {...props}
    />
  );
}

/** Placeholder rows of a list that is loading. */
export function SkeletonRows({
  count,
  className,
  rowClassName,
}: {
  count: number;
  className?: string;
  rowClassName?: string;
}) {
  const rows = Array.from({ length: count }, (_, row) => `skeleton-row-${row}`);
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      {rows.map((key) => (
        <Skeleton key={key} className={rowClassName} />
      ))}
    </div>
  );
}

import type { ReactNode } from 'react';

/** What a list or a section says when it has nothing to show. */
export function EmptyText({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed px-6 py-8 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}

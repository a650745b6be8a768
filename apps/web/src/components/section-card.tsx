import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** A card of the account page or the console: a named region with its heading and a line on what it is for. */
export function SectionCard({
  id,
  icon: Icon,
  title,
  description,
  actions,
  className,
  children,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        'flex min-w-0 flex-col gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-5',
        className,
      )}
    >
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-[min(100%,16rem)] flex-1">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
            <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { useDocumentTitle } from '@/lib/use-document-title';

/** The title block of a signed-in page; also sets the tab title. */
export function PageHeader({
  title,
  description,
  beta,
  actions,
}: {
  title: string;
  description?: ReactNode;
  beta?: boolean;
  actions?: ReactNode;
}) {
  useDocumentTitle(title);
  const { t } = useTranslation('common');
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        {/* Inline, so the badge follows the last word of a wrapped title instead of the far edge. */}
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">
          {title}
          {beta && (
            <Badge variant="info" className="ml-2 align-middle">
              {t('beta')}
            </Badge>
          )}
        </h1>
        {description && (
          <p className="mt-1 max-w-2xl text-sm text-muted-foreground sm:text-base">{description}</p>
        )}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** The width and padding every signed-in page shares, below the fixed navigation bar. */
export function PageContainer({ children }: { children: ReactNode }) {
  return <main className="mx-auto w-full max-w-7xl px-4 pt-24 pb-16 sm:px-6 lg:pt-28">{children}</main>;
}

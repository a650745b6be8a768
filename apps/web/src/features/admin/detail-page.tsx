import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { SkeletonRows } from '@/components/ui/skeleton';
import { EmptyText, LoadError } from './parts';

/** The id of an object's page (`/admin/orders/:id`), or null when the address holds no valid one. */
export function useObjectId(): number | null {
  const { id = '' } = useParams();
  return /^[1-9]\d{0,9}$/.test(id) ? Number(id) : null;
}

/** An object's page while it loads or fails; `children` once it is there. */
export function DetailFrame({
  id,
  query,
  title,
  back,
  children,
}: {
  id: number | null;
  query: { isPending: boolean; isError: boolean; error: unknown; data?: unknown };
  title: string;
  back: { to: string; label: string };
  children: () => ReactNode;
}) {
  const { t } = useTranslation('admin');
  if (id === null) {
    return (
      <>
        <BackLink {...back} />
        <PageHeader title={t('detail.notFound')} />
        <EmptyText>{t('detail.badId')}</EmptyText>
      </>
    );
  }
  if (query.data) return <>{children()}</>;
  return (
    <>
      <BackLink {...back} />
      <PageHeader title={title} />
      {query.isError ? (
        <LoadError error={query.error} />
      ) : (
        <SkeletonRows count={4} rowClassName="h-24 rounded-xl" />
      )}
    </>
  );
}

export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link
      to={to}
      className="mb-3 inline-flex text-sm font-medium text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
    >
      ← {label}
    </Link>
  );
}

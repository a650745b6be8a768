import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyText } from '@/components/empty-text';
import { PageHeader } from '@/components/page-header';
import { SkeletonRows } from '@/components/ui/skeleton';
import { LoadError } from './parts';

/** The id of an object's page (`/admin/orders/:id`), or null when the address holds no valid one. */
function useObjectId(): number | null {
  const { id = '' } = useParams();
  return /^[1-9]\d{0,9}$/.test(id) ? Number(id) : null;
}

/**
 * An object's page (`/admin/orders/:id`): its query, asked for the id in the address; while it loads or
 * fails, the title and the way back; `children` with the object once it is there.
 */
export function ObjectPage<Data, Key extends QueryKey>({
  query,
  title,
  back,
  children,
}: {
  query(id: number): UseQueryOptions<Data, Error, Data, Key>;
  title(id: number | null): string;
  back: { to: string; label: string };
  children(data: Data): ReactNode;
}) {
  const { t } = useTranslation('admin');
  const id = useObjectId();
  const object = useQuery({ ...query(id ?? 0), enabled: id !== null });
  if (id === null) {
    return (
      <>
        <BackLink {...back} />
        <PageHeader title={t('detail.notFound')} />
        <EmptyText>{t('detail.badId')}</EmptyText>
      </>
    );
  }
  if (object.data) return <>{children(object.data)}</>;
  return (
    <>
      <BackLink {...back} />
      <PageHeader title={title(id)} />
      {object.isError ? (
        <LoadError error={object.error} />
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

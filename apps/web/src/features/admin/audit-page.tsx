import { useInfiniteQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '@/components/filter-select';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { type AuditFilters, auditQuery } from './api';
import { useUrlFilters } from './filters';
import { AuditEntries, ListState, LoadMore } from './parts';
import { SearchForm } from './search-form';

const FILTER_NAMES = ['q', 'object_type', 'object_id'] as const;
/** The objects the log can be narrowed to, named as the console's pages are (`nav.<page>`). */
const objectTypes = [
  { value: 'user', page: 'users' },
  { value: 'order', page: 'orders' },
  { value: 'rent', page: 'rents' },
  { value: 'payment', page: 'payments' },
  { value: 'pricing', page: 'pricing' },
  { value: 'provider', page: 'providers' },
];

/** `/admin/audit`: every administrator's action, newest first: who, when, on what, why, and the change. */
export function AuditPage() {
  const { t } = useTranslation('admin');
  const [filters, update] = useUrlFilters(FILTER_NAMES);
  const audit = useInfiniteQuery(auditQuery(filters as AuditFilters));
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <>
      <PageHeader title={t('nav.audit')} description={t('audit.description')} />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <SearchForm
          label={t('audit.search')}
          placeholder={t('audit.placeholder')}
          value={filters.q ?? ''}
          onSearch={(q) => update({ q })}
        >
          <div className="flex flex-wrap items-end gap-3">
            <div className="w-full sm:w-60">
              <FilterSelect
                label={t('audit.object')}
                value={filters.object_type}
                onChange={(object_type) => update({ object_type })}
                options={objectTypes.map(({ value, page }) => ({ value, label: t(`nav.${page}`) }))}
                anyLabel={t('audit.everything')}
              />
            </div>
            {filters.object_id && (
              <Button type="button" variant="ghost" onClick={() => update({ object_id: undefined })}>
                <X aria-hidden="true" />
                {t('audit.onlyObject', { id: filters.object_id })}
              </Button>
            )}
          </div>
        </SearchForm>
        <ListState query={audit} empty={entries.length === 0} emptyText={t('audit.none')} />
        {entries.length > 0 && <AuditEntries entries={entries} />}
        <LoadMore query={audit} />
      </Card>
    </>
  );
}

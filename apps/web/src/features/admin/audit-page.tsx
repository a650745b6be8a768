import { useInfiniteQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { type AuditFilters, auditQuery } from './api';
import { FilterSelect, useUrlFilters } from './filters';
import { AuditEntries, ListState, LoadMore } from './parts';
import { SearchForm } from './search-form';

const FILTER_NAMES = ['q', 'object_type', 'object_id'] as const;
const objectTypes = [
  { value: 'user', label: 'Users' },
  { value: 'order', label: 'Orders' },
  { value: 'rent', label: 'Rents' },
  { value: 'payment', label: 'Payments' },
  { value: 'pricing', label: 'Pricing' },
  { value: 'provider', label: 'Providers' },
];

/** `/admin/audit`: every administrator's action, newest first: who, when, on what, why, and the change. */
export function AuditPage() {
  const [filters, update] = useUrlFilters(FILTER_NAMES);
  const audit = useInfiniteQuery(auditQuery(filters as AuditFilters));
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every action taken in the console, with the administrator, the reason and what changed."
      />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <SearchForm
          label="Search the audit log"
          placeholder="Administrator, action or reason"
          value={filters.q ?? ''}
          onSearch={(q) => update({ q })}
        >
          <div className="flex flex-wrap items-end gap-3">
            <div className="w-full sm:w-60">
              <FilterSelect
                label="Object"
                value={filters.object_type}
                onChange={(object_type) => update({ object_type })}
                options={objectTypes}
                anyLabel="Everything"
              />
            </div>
            {filters.object_id && (
              <Button type="button" variant="ghost" onClick={() => update({ object_id: undefined })}>
                <X aria-hidden="true" />
                Only #{filters.object_id}: show all
              </Button>
            )}
          </div>
        </SearchForm>
        <ListState query={audit} empty={entries.length === 0} emptyText="No audit entry matches." />
        {entries.length > 0 && <AuditEntries entries={entries} />}
        <LoadMore query={audit} />
      </Card>
    </>
  );
}

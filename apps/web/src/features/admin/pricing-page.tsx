import { type PricingRules, pricingRulesSchema } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Eye, History, Percent, Plus, Save, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyText } from '@/components/empty-text';
import type { Option } from '@/components/filter-select';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { i18n } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { formatDollars, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { ActionDialog } from './action-dialog';
import { type PricingPreviewResponse, pricingQuery, usePricingPreview, useSavePricing } from './api';
import { countryOptions, serviceOptions } from './filters';
import { AuditEntries, countryName, LoadError, serviceName } from './parts';

/** "Every service" / "every country" in a select, which needs a value for it. */
const EVERY = 'every';

interface DraftOverride {
  /** Only for React's list keys. */
  key: number;
  service: string | null;
  country_id: string | null;
  percent: string;
}

interface Draft {
  default_percent: string;
  overrides: DraftOverride[];
}

let nextKey = 1;

function toDraft(rules: PricingRules): Draft {
  return {
    default_percent: String(rules.default_percent),
    overrides: rules.overrides.map((override) => ({
      ...override,
      key: nextKey++,
      percent: String(override.percent),
    })),
  };
}

/** The draft as the API takes it, or the first thing wrong with it in words. */
function toRules(draft: Draft): { rules: PricingRules } | { problem: string } {
  const percent = (text: string) =>
    /^\d+(\.\d{1,2})?$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  const candidate = {
    default_percent: percent(draft.default_percent),
    overrides: draft.overrides.map(({ service, country_id, percent: text }) => ({
      service,
      country_id,
      percent: percent(text),
    })),
  };
  if (Number.isNaN(candidate.default_percent) || candidate.default_percent > 1000)
    return { problem: i18n.t('admin:pricing.globalInvalid') };
  for (const [index, override] of candidate.overrides.entries()) {
    if (Number.isNaN(override.percent) || override.percent > 1000)
      return {
        problem: i18n.t('admin:pricing.overrideInvalid', { number: index + 1 }),
      };
    if (override.service === null && override.country_id === null)
      return { problem: i18n.t('admin:pricing.overrideEmpty', { number: index + 1 }) };
  }
  const scopes = new Set(candidate.overrides.map((override) => `${override.service}/${override.country_id}`));
  if (scopes.size !== candidate.overrides.length) return { problem: i18n.t('admin:pricing.duplicate') };
  const parsed = pricingRulesSchema.safeParse(candidate);
  if (!parsed.success) return { problem: i18n.t('admin:pricing.invalid') };
  return { rules: parsed.data };
}

function ScopeSelect({
  label,
  value,
  onChange,
  options,
  everyLabel,
}: {
  label: string;
  value: string | null;
  onChange(value: string | null): void;
  options: readonly Option[];
  everyLabel: string;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={id} className="sm:sr-only">
        {label}
      </Label>
      <Select value={value ?? EVERY} onValueChange={(next) => onChange(next === EVERY ? null : next)}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={EVERY}>{everyLabel}</SelectItem>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function OverrideRow({
  index,
  override,
  onChange,
  onRemove,
}: {
  index: number;
  override: DraftOverride;
  onChange(override: DraftOverride): void;
  onRemove(): void;
}) {
  const { t } = useTranslation('admin');
  const percentId = useId();
  const scope = t('pricing.scope', {
    service: override.service ? serviceName(override.service) : t('pricing.everyServiceLower'),
    country: override.country_id ? countryName(override.country_id) : t('pricing.everyCountryLower'),
  });
  return (
    <li
      aria-label={t('pricing.overrideLabel', { number: index + 1, scope })}
      className="grid grid-cols-1 gap-2 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_7rem_auto] sm:items-end sm:rounded-none sm:border-0 sm:border-b sm:p-0 sm:pb-2"
    >
      <ScopeSelect
        label={t('pricing.service')}
        value={override.service}
        onChange={(service) => onChange({ ...override, service })}
        options={serviceOptions}
        everyLabel={t('pricing.everyService')}
      />
      <ScopeSelect
        label={t('pricing.country')}
        value={override.country_id}
        onChange={(country_id) => onChange({ ...override, country_id })}
        options={countryOptions()}
        everyLabel={t('pricing.everyCountry')}
      />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={percentId} className="sm:sr-only">
          {t('pricing.markup')}
        </Label>
        <Input
          id={percentId}
          inputMode="decimal"
          value={override.percent}
          onChange={(event) => onChange({ ...override, percent: event.target.value })}
        />
      </div>
      <Button
        type="button"
        variant="ghost"
        className="justify-self-start text-destructive hover:text-red-700 sm:justify-self-auto"
        onClick={onRemove}
      >
        <Trash2 aria-hidden="true" />
        <span className="sm:sr-only">{t('pricing.remove')}</span>
        <span className="sr-only">{t('pricing.removeOverride', { number: index + 1 })}</span>
      </Button>
    </li>
  );
}

function PreviewTable({ preview }: { preview: PricingPreviewResponse }) {
  const { t } = useTranslation('admin');
  const onlyChangedId = useId();
  const changed = preview.countries.filter((row) => row.new_price !== row.current_price);
  const [onlyChanged, setOnlyChanged] = useState(changed.length > 0);
  if (preview.countries.length === 0)
    return <EmptyText>{t('pricing.noCountry', { service: serviceName(preview.service) })}</EmptyText>;
  const rows = onlyChanged ? changed : preview.countries;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {changed.length === 0
            ? t('pricing.noChange', { service: serviceName(preview.service) })
            : t('pricing.changed', { changed: changed.length, count: preview.countries.length })}
        </p>
        <label htmlFor={onlyChangedId} className="flex cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            id={onlyChangedId}
            type="checkbox"
            checked={onlyChanged}
            onChange={(event) => setOnlyChanged(event.target.checked)}
            className="size-4 accent-primary"
          />
          {t('pricing.onlyChanged')}
        </label>
      </div>
      {rows.length > 0 && (
        <div className="max-h-[32rem] min-w-0 overflow-y-auto rounded-lg border">
          <Table aria-label={t('pricing.prices', { service: serviceName(preview.service) })}>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">{t('pricing.country')}</TableHead>
                <TableHead scope="col" className="text-right">
                  {t('pricing.now')}
                </TableHead>
                <TableHead scope="col" className="text-right">
                  {t('pricing.new')}
                </TableHead>
                <TableHead scope="col" className="hidden text-right sm:table-cell">
                  {t('pricing.cost')}
                </TableHead>
                <TableHead scope="col" className="hidden text-right sm:table-cell">
                  {t('pricing.stock')}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.country_id}>
                  <TableCell className="py-2">
                    {countryName(row.country_id, row.country)}
                    {/* On a phone the cost and the stock sit under the country. */}
                    <span className="block text-xs text-muted-foreground sm:hidden">
                      {t('pricing.costStock', {
                        cost: formatDollars(row.cost),
                        stock: formatNumber(row.stock),
                      })}
                    </span>
                  </TableCell>
                  <TableCell className="py-2 text-right align-top tabular-nums">
                    {formatDollars(row.current_price)}
                  </TableCell>
                  <TableCell
                    className={cn(
                      'py-2 text-right align-top font-medium tabular-nums',
                      row.new_price > row.current_price && 'text-green-800',
                      row.new_price < row.current_price && 'text-red-700',
                    )}
                  >
                    {formatDollars(row.new_price)}
                  </TableCell>
                  <TableCell className="hidden py-2 text-right align-top tabular-nums text-muted-foreground sm:table-cell">
                    {formatDollars(row.cost)}
                  </TableCell>
                  <TableCell className="hidden py-2 text-right align-top tabular-nums sm:table-cell">
                    {formatNumber(row.stock)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}

function PreviewSection({ draft }: { draft: Draft }) {
  const { t } = useTranslation('admin');
  const serviceId = useId();
  const [service, setService] = useState('tg');
  const [problem, setProblem] = useState<string | null>(null);
  const preview = usePricingPreview();

  function run() {
    const result = toRules(draft);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    setProblem(null);
    preview.mutate({ ...result.rules, service });
  }

  return (
    <SectionCard
      id="pricing-preview"
      icon={Eye}
      title={t('pricing.preview')}
      description={t('pricing.previewDescription')}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 sm:w-72">
          <Field id={serviceId} label={t('pricing.service')}>
            <Select value={service} onValueChange={setService}>
              <SelectTrigger id={serviceId}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {serviceOptions.map((option) => (
                  <SelectItem key={option.value} value={option.value}>
                    {option.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        </div>
        <Button variant="outline" onClick={run} busy={preview.isPending}>
          {!preview.isPending && <Eye aria-hidden="true" />}
          {t('pricing.preview')}
        </Button>
      </div>
      {(problem || preview.isError) && (
        <Alert variant="destructive">
          <AlertDescription>{problem ?? errorMessage(preview.error)}</AlertDescription>
        </Alert>
      )}
      {preview.data && !problem && <PreviewTable key={preview.submittedAt} preview={preview.data} />}
    </SectionCard>
  );
}

function RulesEditor({ rules }: { rules: PricingRules }) {
  const { t } = useTranslation('admin');
  const defaultId = useId();
  const [draft, setDraft] = useState(() => toDraft(rules));
  const save = useSavePricing();
  const result = toRules(draft);
  const changed = 'problem' in result || JSON.stringify(result.rules) !== JSON.stringify(rules);

  const setOverride = (key: number, next: DraftOverride) =>
    setDraft((current) => ({
      ...current,
      overrides: current.overrides.map((override) => (override.key === key ? next : override)),
    }));

  return (
    <>
      <SectionCard
        id="pricing-rules"
        icon={Percent}
        title={t('pricing.markupTitle')}
        description={t('pricing.markupDescription')}
      >
        <div className="max-w-xs">
          <Field id={defaultId} label={t('pricing.globalMarkup')}>
            <Input
              id={defaultId}
              inputMode="decimal"
              value={draft.default_percent}
              onChange={(event) => setDraft({ ...draft, default_percent: event.target.value })}
            />
          </Field>
        </div>
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">{t('pricing.overrides')}</h3>
          {draft.overrides.length === 0 ? (
            <EmptyText>{t('pricing.noOverrides')}</EmptyText>
          ) : (
            <>
              <div
                aria-hidden="true"
                className="hidden grid-cols-[minmax(0,1fr)_minmax(0,1fr)_7rem_auto] gap-2 border-b pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase sm:grid"
              >
                <span>{t('pricing.service')}</span>
                <span>{t('pricing.country')}</span>
                <span>{t('pricing.markup')}</span>
                <span className="w-10" />
              </div>
              <ul className="flex flex-col gap-2" aria-label={t('pricing.overrides')}>
                {draft.overrides.map((override, index) => (
                  <OverrideRow
                    key={override.key}
                    index={index}
                    override={override}
                    onChange={(next) => setOverride(override.key, next)}
                    onRemove={() =>
                      setDraft((current) => ({
                        ...current,
                        overrides: current.overrides.filter((each) => each.key !== override.key),
                      }))
                    }
                  />
                ))}
              </ul>
            </>
          )}
          <Button
            type="button"
            variant="outline"
            className="self-start"
            onClick={() =>
              setDraft((current) => ({
                ...current,
                overrides: [
                  ...current.overrides,
                  { key: nextKey++, service: null, country_id: null, percent: current.default_percent },
                ],
              }))
            }
          >
            <Plus aria-hidden="true" />
            {t('pricing.addOverride')}
          </Button>
        </div>
        {'problem' in result && (
          <Alert variant="warning">
            <AlertDescription>{result.problem}</AlertDescription>
          </Alert>
        )}
        <div className="flex flex-wrap items-center gap-3 border-t pt-4">
          <ActionDialog
            label={t('pricing.save')}
            icon={Save}
            variant="default"
            disabled={!changed || 'problem' in result}
            title={t('pricing.saveTitle')}
            description={t('pricing.saveDescription')}
            confirmLabel={t('pricing.save')}
            validate={() => ('problem' in result ? result.problem : null)}
            run={(reason) => save.mutateAsync({ ...(result as { rules: PricingRules }).rules, reason })}
          />
          {changed && (
            <>
              <Button type="button" variant="ghost" onClick={() => setDraft(toDraft(rules))}>
                {t('pricing.discard')}
              </Button>
              <span className="text-sm text-muted-foreground">{t('pricing.notSaved')}</span>
            </>
          )}
        </div>
      </SectionCard>
      <PreviewSection draft={draft} />
    </>
  );
}

/** `/admin/pricing`: the markup rules, a preview of what they do to a service's prices, and their history. */
export function PricingPage() {
  const { t } = useTranslation('admin');
  const pricing = useQuery(pricingQuery);

  return (
    <>
      <PageHeader title={t('nav.pricing')} description={t('pricing.description')} />
      {pricing.isError && !pricing.data && <LoadError error={pricing.error} />}
      {pricing.isPending && <SkeletonRows count={3} rowClassName="h-32 rounded-xl" />}
      {pricing.data && (
        <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6">
          {/* New rules (saved here or elsewhere) start a new draft. */}
          <RulesEditor key={JSON.stringify(pricing.data.rules)} rules={pricing.data.rules} />
          <SectionCard
            id="pricing-history"
            icon={History}
            title={t('pricing.history')}
            description={t('pricing.historyDescription')}
          >
            {pricing.data.history.length === 0 ? (
              <EmptyText>{t('pricing.noHistory')}</EmptyText>
            ) : (
              <AuditEntries entries={pricing.data.history} showObject={false} />
            )}
          </SectionCard>
        </div>
      )}
    </>
  );
}

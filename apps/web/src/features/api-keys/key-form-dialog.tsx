import { type ApiKeyScope, type ApiKeyView, apiKeyScopes, type CreateApiKeyRequest } from '@simcode/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';

type Settings = Required<Omit<CreateApiKeyRequest, 'current_password' | 'code'>>;
/** What creating a key asks on top of its settings: a key outlives every session. */
export interface OwnerProof {
  current_password: string;
  code: string;
}

function optionalNumber(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * The create and edit form: name, allow-list, caps, guards, scope and callback URL; creating also asks for
 * the password and, with two-factor on, a code.
 */
export function KeyFormDialog({
  open,
  onOpenChange,
  initial,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The key being edited; none when creating. */
  initial?: ApiKeyView;
  onSubmit: (settings: Settings, proof: OwnerProof) => Promise<void>;
}) {
  const { t } = useTranslation('apiKeys');
  const id = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [ips, setIps] = useState(initial?.allowed_ips.join('\n') ?? '');
  const [dailyCap, setDailyCap] = useState(initial?.daily_cap?.toString() ?? '');
  const [totalCap, setTotalCap] = useState(initial?.total_cap?.toString() ?? '');
  const [maxActive, setMaxActive] = useState(initial?.max_active_orders?.toString() ?? '');
  const [callback, setCallback] = useState(initial?.callback_url ?? '');
  const [scope, setScope] = useState<ApiKeyScope>(initial?.scope ?? 'full');
  const [maxPrice, setMaxPrice] = useState(initial?.max_price?.toString() ?? '');
  const [minRate, setMinRate] = useState(
    initial?.min_delivery_rate === null || initial?.min_delivery_rate === undefined
      ? ''
      : String(Math.round(initial.min_delivery_rate * 100)),
  );
  const [stopAfter, setStopAfter] = useState(initial?.stop_after_failures?.toString() ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [saving, setSaving] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      await onSubmit(
        {
          name,
          allowed_ips: ips
            .split(/[\s,]+/)
            .map((entry) => entry.trim())
            .filter(Boolean),
          daily_cap: optionalNumber(dailyCap),
          total_cap: optionalNumber(totalCap),
          max_active_orders: optionalNumber(maxActive),
          callback_url: callback.trim() || null,
          scope,
          max_price: optionalNumber(maxPrice),
          min_delivery_rate: minRate.trim() === '' ? null : Number(minRate) / 100,
          stop_after_failures: optionalNumber(stopAfter),
        },
        { current_password: password, code: code.trim() },
      );
      onOpenChange(false);
    } catch (error) {
      toast.error(errorMessage(error, t('form.failed')));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{initial ? t('form.editTitle') : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{t('form.capHint')}</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-4" onSubmit={submit}>
          <Field id={`${id}-name`} label={t('form.name')}>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder={t('form.namePlaceholder')}
              maxLength={60}
              required
            />
          </Field>
          <Field
            id={`${id}-ips`}
            label={t('form.allowedIps')}
            below={<p className="text-xs text-muted-foreground">{t('form.allowedIpsHint')}</p>}
          >
            <Textarea
              id={`${id}-ips`}
              value={ips}
              onChange={(event) => setIps(event.target.value)}
              rows={2}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-3 sm:items-end">
            <Field id={`${id}-daily`} label={t('form.dailyCap')}>
              <Input
                id={`${id}-daily`}
                inputMode="decimal"
                value={dailyCap}
                onChange={(event) => setDailyCap(event.target.value)}
              />
            </Field>
            <Field id={`${id}-total`} label={t('form.totalCap')}>
              <Input
                id={`${id}-total`}
                inputMode="decimal"
                value={totalCap}
                onChange={(event) => setTotalCap(event.target.value)}
              />
            </Field>
            <Field id={`${id}-active`} label={t('form.maxActive')}>
              <Input
                id={`${id}-active`}
                inputMode="numeric"
                value={maxActive}
                onChange={(event) => setMaxActive(event.target.value)}
              />
            </Field>
          </div>
          <div className="grid gap-4 sm:grid-cols-3 sm:items-end">
            <Field id={`${id}-max-price`} label={t('form.maxPrice')}>
              <Input
                id={`${id}-max-price`}
                inputMode="decimal"
                value={maxPrice}
                onChange={(event) => setMaxPrice(event.target.value)}
              />
            </Field>
            <Field id={`${id}-min-rate`} label={t('form.minDeliveryRate')}>
              <Input
                id={`${id}-min-rate`}
                inputMode="numeric"
                value={minRate}
                onChange={(event) => setMinRate(event.target.value)}
              />
            </Field>
            <Field id={`${id}-stop-after`} label={t('form.stopAfter')}>
              <Input
                id={`${id}-stop-after`}
                inputMode="numeric"
                value={stopAfter}
                onChange={(event) => setStopAfter(event.target.value)}
              />
            </Field>
          </div>
          <Field
            id={`${id}-scope`}
            label={t('form.scope')}
            below={<p className="text-xs text-muted-foreground">{t(`form.scopeHint.${scope}`)}</p>}
          >
            <Select value={scope} onValueChange={(value) => setScope(value as ApiKeyScope)}>
              <SelectTrigger id={`${id}-scope`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {apiKeyScopes.map((value) => (
                  <SelectItem key={value} value={value}>
                    {t(`scopes.${value}`)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <Field
            id={`${id}-callback`}
            label={t('form.callback')}
            below={<p className="text-xs text-muted-foreground">{t('form.callbackHint')}</p>}
          >
            <Input
              id={`${id}-callback`}
              type="url"
              value={callback}
              onChange={(event) => setCallback(event.target.value)}
              // i18n-ignore: an example address, the same in every language.
              placeholder="https://example.com/sms-webhook"
            />
          </Field>
          {!initial && (
            <>
              <Field id={`${id}-password`} label={t('form.password')}>
                <Input
                  id={`${id}-password`}
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </Field>
              <Field
                id={`${id}-code`}
                label={t('form.code')}
                below={<p className="text-xs text-muted-foreground">{t('form.codeHint')}</p>}
              >
                <Input
                  id={`${id}-code`}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                />
              </Field>
            </>
          )}
          <DialogFooter>
            <Button type="submit" disabled={saving}>
              {initial ? t('form.save') : t('form.create')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

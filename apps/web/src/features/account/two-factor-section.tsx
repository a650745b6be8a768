import {
  type Account,
  authMessages,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  type TwoFactorSetup,
} from '@simcode/contract';
import { Copy, ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormError } from '@/components/form-error';
import { PasswordInput } from '@/components/password-input';
import { SectionCard } from '@/components/section-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { copyToClipboard } from '@/lib/copy';
import { useDisableTwoFactor, useEnableTwoFactor, useRenewRecoveryCodes, useTwoFactorSetup } from './api';
import { useFormError } from './credentials-forms';
import { RecoveryCodes } from './recovery-codes';

/** A code from the app or a recovery code: no digit-only keyboard, no autocorrection. */
function CodeInput(props: { id: string; value: string; onChange(value: string): void; autoFocus?: boolean }) {
  return (
    <Input
      id={props.id}
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      autoFocus={props.autoFocus}
      className="max-w-56 font-mono tracking-wider"
    />
  );
}

/** Secrets are read in groups of four, as authenticator apps show them. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function SetupPanel({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled(codes: string[]): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('account');
  const id = useId();
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');
  const { error, setRule } = useFormError(enable);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    const rule = typed ? null : t('twoFactor.codeRequired', { digits: TOTP_DIGITS });
    setRule(rule);
    if (rule) return;
    enable.mutate(typed, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onEnabled(answer.recovery_codes);
      },
    });
  }

  return (
    <div className="flex flex-col gap-4 rounded-lg border bg-muted/40 p-4">
      <h3 ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        {t('twoFactor.setupTitle')}
      </h3>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`}
          alt={t('twoFactor.qrAlt')}
          width={176}
          height={176}
          className="size-44 shrink-0 self-center rounded-lg border bg-white p-2 sm:self-start"
        />
        <ol className="flex min-w-0 list-decimal flex-col gap-3 pl-5 text-sm">
          <li>{t('twoFactor.scan')}</li>
          <li>
            <span>{t('twoFactor.typeKey')}</span>
            <span className="mt-1.5 flex flex-wrap items-center gap-2">
              <code
                className="rounded-md bg-white px-2 py-1 font-mono text-sm break-all ring-1 ring-border"
                data-testid="two-factor-secret"
              >
                {grouped(setup.secret)}
              </code>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => copyToClipboard(setup.secret, t('twoFactor.copiedWhat'))}
              >
                <Copy aria-hidden="true" />
                {t('twoFactor.copyKey')}
              </Button>
            </span>
          </li>
          <li>{t('twoFactor.enterCode', { digits: TOTP_DIGITS })}</li>
        </ol>
      </div>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-label={t('twoFactor.confirmForm')}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <Field id={`${id}-code`} label={t('twoFactor.codeFromApp')}>
          <CodeInput id={`${id}-code`} value={code} onChange={setCode} />
        </Field>
        {error && <FormError id={`${id}-error`}>{error}</FormError>}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" busy={enable.isPending}>
            {t('twoFactor.confirm')}
          </Button>
          <Button type="button" variant="outline" onClick={onCancel}>
            {t('twoFactor.cancel')}
          </Button>
        </div>
      </form>
    </div>
  );
}

type Confirming = 'disable' | 'renew';

/** Turning it off or making new recovery codes: the password and a current code prove it is the owner. */
function ConfirmForm({
  action,
  onRenewed,
  onClose,
}: {
  action: Confirming;
  onRenewed(codes: string[]): void;
  /** `done` when two-factor authentication was turned off. */
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation('account');
  const id = useId();
  const disable = useDisableTwoFactor();
  const renew = useRenewRecoveryCodes();
  const mutation = action === 'disable' ? disable : renew;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { error, setRule } = useFormError(mutation);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    const rule = !password || !typed ? authMessages.fillAllFields : null;
    setRule(rule);
    if (rule) return;
    const body = { current_password: password, code: typed };
    if (action === 'disable') {
      disable.mutate(body, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose(true);
        },
      });
    } else {
      renew.mutate(body, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onRenewed(answer.recovery_codes);
        },
      });
    }
  }

  const title = action === 'disable' ? t('twoFactor.disableTitle') : t('twoFactor.renewTitle');
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4 rounded-lg border bg-muted/40 p-4"
      aria-labelledby={`${id}-title`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <div>
        <h3 id={`${id}-title`} className="font-semibold">
          {title}
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">
          {action === 'disable' ? t('twoFactor.disableEffect') : t('twoFactor.renewEffect')}{' '}
          {t('twoFactor.confirmWith')}
        </p>
      </div>
      <Field id={`${id}-password`} label={t('twoFactor.currentPassword')}>
        <PasswordInput
          id={`${id}-password`}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoFocus
        />
      </Field>
      <Field id={`${id}-code`} label={t('twoFactor.code')}>
        <CodeInput id={`${id}-code`} value={code} onChange={setCode} />
      </Field>
      {error && <FormError id={`${id}-error`}>{error}</FormError>}
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          variant={action === 'disable' ? 'destructive' : 'default'}
          busy={mutation.isPending}
        >
          {action === 'disable' ? t('twoFactor.turnOff') : t('twoFactor.renew')}
        </Button>
        <Button type="button" variant="outline" onClick={() => onClose(false)}>
          {t('twoFactor.cancel')}
        </Button>
      </div>
    </form>
  );
}

type FocusTarget = 'turn-on' | Confirming;

export function TwoFactorSection({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const setupRequest = useTwoFactorSetup();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const enabled = account.two_factor_enabled;
  const left = account.recovery_codes_left;

  // A closed panel gives focus back to the button that stands where it was. That button may come with
  // the account's next answer (Turn on, after turning off), so the target waits until it is there.
  const buttons = useRef<Partial<Record<FocusTarget, HTMLButtonElement | null>>>({});
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `enabled` decides which buttons are shown.
  useEffect(() => {
    const button = focusTarget && buttons.current[focusTarget];
    if (!button) return;
    button.focus();
    setFocusTarget(null);
  }, [focusTarget, enabled]);

  function onTurnOn() {
    setupRequest.mutate(undefined, {
      onSuccess: (answer) => setSetup(answer),
      onError: (error) => toast.error(errorMessage(error)),
    });
  }

  // The order matters: a panel stays while the account is asked again after its change (the codes of
  // a setup just confirmed are shown although the account now says "on").
  let body: React.ReactNode;
  if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        username={account.username}
        onDone={() => {
          setCodes(null);
          setFocusTarget('renew');
        }}
      />
    );
  } else if (confirming) {
    body = (
      <ConfirmForm
        key={confirming}
        action={confirming}
        onRenewed={(renewed) => {
          setConfirming(null);
          setCodes(renewed);
        }}
        onClose={(done) => {
          setConfirming(null);
          setFocusTarget(done ? 'turn-on' : confirming);
        }}
      />
    );
  } else if (setup) {
    body = (
      <SetupPanel
        setup={setup}
        onEnabled={(made) => {
          setSetup(null);
          setCodes(made);
        }}
        onCancel={() => {
          setSetup(null);
          setFocusTarget('turn-on');
        }}
      />
    );
  } else if (enabled) {
    body = (
      <div className="flex flex-wrap gap-2">
        <Button
          ref={(element) => {
            buttons.current.renew = element;
          }}
          variant="outline"
          onClick={() => setConfirming('renew')}
        >
          {t('twoFactor.newCodes')}
        </Button>
        <Button
          ref={(element) => {
            buttons.current.disable = element;
          }}
          variant="outline"
          onClick={() => setConfirming('disable')}
        >
          {t('twoFactor.turnOff')}
        </Button>
      </div>
    );
  } else {
    body = (
      <Button
        ref={(element) => {
          buttons.current['turn-on'] = element;
        }}
        className="self-start"
        busy={setupRequest.isPending}
        onClick={onTurnOn}
      >
        {t('twoFactor.turnOn')}
      </Button>
    );
  }

  return (
    <SectionCard
      id="two-factor"
      icon={ShieldCheck}
      title={t('twoFactor.title')}
      description={t('twoFactor.description')}
      actions={
        <Badge variant={enabled ? 'success' : 'muted'} data-testid="two-factor-status">
          {enabled ? t('status.on') : t('status.off')}
        </Badge>
      }
      className="lg:col-span-2"
    >
      {enabled && !codes && (
        <p className="text-sm" data-testid="recovery-codes-left">
          <Trans
            t={t}
            i18nKey="twoFactor.codesLeft"
            values={{ left, total: RECOVERY_CODE_COUNT }}
            components={{ strong: <strong className={left <= 3 ? 'text-destructive' : undefined} /> }}
          />
          {left <= 3 && t('twoFactor.codesLow')}
        </p>
      )}
      {body}
    </SectionCard>
  );
}

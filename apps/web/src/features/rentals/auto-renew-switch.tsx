import { Switch } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

/** An on/off switch labelled by its text; the rent pages' automatic renewal. */
export function AutoRenewSwitch({
  id,
  checked,
  onCheckedChange,
  disabled,
  label,
  className,
}: {
  id: string;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  disabled?: boolean;
  /** 'Auto-renew' unless given. */
  label?: string;
  className?: string;
}) {
  const { t } = useTranslation('rentals');
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        className="peer inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary"
      >
        <Switch.Thumb className="pointer-events-none block size-4 rounded-full bg-white shadow-sm transition-transform data-[state=checked]:translate-x-4" />
      </Switch.Root>
      <label
        htmlFor={id}
        className="cursor-pointer text-sm font-medium select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-60"
      >
        {label ?? t('rent.autoRenew')}
      </label>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { LabelledSwitch } from '@/components/ui/switch';

/** The rent pages' automatic renewal switch. */
export function AutoRenewSwitch({
  label,
  ...props
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
  return <LabelledSwitch {...props} label={label ?? t('rent.autoRenew')} />;
}

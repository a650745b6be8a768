import { paymentProviderBrand, type TopupMethodsResponse } from '@simcode/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

type ProviderMethods = TopupMethodsResponse['providers'][number];

export const providerName = paymentProviderBrand;

interface PaymentMethodsProps {
  providers: ProviderMethods[];
  selected: string | undefined;
  disabled: boolean;
  onSelect(provider: string): void;
}

/**
 * The ways to pay, one choice per payment provider that answers now, each with its coins and networks,
 * the least it accepts in each coin and its fee, shown before the payer opens any payment page.
 */
export function PaymentMethods({ providers, selected, disabled, onSelect }: PaymentMethodsProps) {
  const { t } = useTranslation('topup');
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium">{t('methods.title')}</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {providers.map((entry) => {
          const checked = entry.provider === selected;
          const id = `${name}-${entry.provider}`;
          return (
            <div key={entry.provider}>
              <input
                type="radio"
                id={id}
                name={name}
                value={entry.provider}
                checked={checked}
                onChange={() => onSelect(entry.provider)}
                className="peer sr-only"
              />
              <label
                htmlFor={id}
                className={cn(
                  'flex h-full cursor-pointer flex-col gap-1 rounded-lg border p-3 transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-ring hover:border-primary',
                  checked ? 'border-primary bg-secondary ring-1 ring-primary' : 'bg-background',
                )}
              >
                <span className="text-sm font-semibold">{providerName(entry.provider)}</span>
                <ul className="flex flex-col gap-0.5 text-xs text-muted-foreground">
                  {entry.methods.map((method) => (
                    <li key={`${method.currency}-${method.network}`}>
                      {t('methods.method', {
                        currency: method.currency,
                        network: method.network,
                        min: method.min_amount,
                        fee: method.fee_percent,
                      })}
                    </li>
                  ))}
                </ul>
              </label>
            </div>
          );
        })}
      </div>
      <p className="text-xs text-muted-foreground">{t('methods.feeNote')}</p>
    </fieldset>
  );
}

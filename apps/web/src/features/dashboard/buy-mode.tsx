import { Globe2, LayoutGrid } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SegmentedRadios } from '@/components/segmented-radios';
import { useRememberedChoice } from '@/lib/use-remembered-choice';

type BuyMode = 'country' | 'service';

/**
 * The dashboard's way of buying, as this browser chose it last ("By country" until then, as the spec has
 * it), unless the page was opened for one service (`opened`).
 */
export function useBuyMode(opened?: BuyMode) {
  return useRememberedChoice<BuyMode>('dashboard-mode', ['country', 'service'], 'country', opened);
}

/** "By country" or "By service". */
export function BuyModeSwitch({ mode, onChange }: { mode: BuyMode; onChange(mode: BuyMode): void }) {
  const { t } = useTranslation('dashboard');
  return (
    <SegmentedRadios
      name="buy-mode"
      legend={t('mode.legend')}
      showLegend
      options={[
        { value: 'country', label: t('mode.byCountry'), Icon: Globe2 },
        { value: 'service', label: t('mode.byService'), Icon: LayoutGrid },
      ]}
      value={mode}
      onChange={onChange}
    />
  );
}

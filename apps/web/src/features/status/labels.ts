import { currentLanguage, type LocalizedText, type StatusComponent } from '@simcode/contract';
import { i18n } from '@/i18n';
import { formatNumber } from '@/lib/format';

/** A component's name in the reader's language; an operator's own supplier name is shown as given. */
export function componentName(component: Pick<StatusComponent, 'id' | 'name'>): string {
  if (component.id === 'web' || component.id === 'api' || component.id === 'payments') {
    return i18n.t(`status:components.${component.id}`);
  }
  const anonymous = /^Supplier ([A-Z])$/.exec(component.name);
  return anonymous ? i18n.t('status:components.supplier', { letter: anonymous[1] }) : component.name;
}

/** An incident's text in the reader's language. */
export function localized(text: LocalizedText): string {
  return text[currentLanguage()];
}

/** '99.93%': uptime needs two decimals (a day down in 90 is 98.89%). */
export function percentText(share: number): string {
  return i18n.t('status:percent', { value: formatNumber(Math.floor(share * 10_000) / 100) });
}

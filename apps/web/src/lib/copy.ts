import { toast } from 'sonner';
import { i18n } from '@/i18n';

/** Copies a text and says so. `what` names it in the current language ('Code', 'Код', '验证码'). */
export async function copyToClipboard(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(i18n.t('common:copy.copied', { what }), { description: text, duration: 2500 });
  } catch {
    toast.error(i18n.t('common:copy.failed'), { description: i18n.t('common:copy.failedHint') });
  }
}

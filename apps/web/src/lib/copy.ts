import { toast } from 'sonner';
import { i18n } from '@/i18n';

/**
 * Copies a text and says so. `what` names it in the current language ('Code', 'Код', '验证码'); the toast
 * repeats the text unless it is a long one (a code example).
 */
export async function copyToClipboard(
  text: string,
  what: string,
  { showText = true }: { showText?: boolean } = {},
): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(i18n.t('common:copy.copied', { what }), {
      description: showText ? text : undefined,
      duration: 2500,
    });
  } catch {
    toast.error(i18n.t('common:copy.failed'), { description: i18n.t('common:copy.failedHint') });
  }
}

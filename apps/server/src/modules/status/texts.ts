import type { LocalizedText } from '@simcode/contract';

/** The automatic incidents' words, in each language of the site; `{name}` is the component's public name. */
const AUTOMATIC = {
  title: {
    en: 'Problems with {name}',
    ru: 'Проблемы: {name}',
    zh: '{name} 出现问题',
  },
  opened: {
    en: 'Our checks of {name} (whether it answers and sells numbers, and how often and how fast its codes arrive) have failed for {minutes} minutes in a row. We are looking into it; purchases may go to other suppliers meanwhile.',
    ru: 'Наши проверки {name} (отвечает ли он, продаёт ли номера, как часто и как быстро приходят коды) не проходят {minutes} мин подряд. Мы разбираемся; покупки тем временем могут идти через других поставщиков.',
    zh: '我们对 {name} 的检查（是否响应、能否售出号码，以及验证码送达的频率和速度）已连续 {minutes} 分钟失败。我们正在处理；在此期间购买可能会转到其他供应商。',
  },
  resolved: {
    en: 'Our checks of {name} have passed for {minutes} minutes in a row: resolved.',
    ru: 'Проверки {name} проходят {minutes} мин подряд: решено.',
    zh: '对 {name} 的检查已连续 {minutes} 分钟通过：已解决。',
  },
} satisfies Record<string, LocalizedText>;

function fill(text: LocalizedText, values: Record<string, string | number>): LocalizedText {
  const one = (template: string) =>
    template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
  return { en: one(text.en), ru: one(text.ru), zh: one(text.zh) };
}

export const automaticTexts = {
  title: (name: string) => fill(AUTOMATIC.title, { name }),
  opened: (name: string, minutes: number) => fill(AUTOMATIC.opened, { name, minutes }),
  resolved: (name: string, minutes: number) => fill(AUTOMATIC.resolved, { name, minutes }),
};

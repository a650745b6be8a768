import { translate } from '../i18n/instance';
/**
 * Services a one-time number can be bought for, keyed by SMS-Activate-style codes: the spec's 35 codes
 * first (spec section 3), then popular extras. Adapters translate these codes to a provider's own.
 * `icon` is a simple-icons slug, `fa:<name>` for a mark from Font Awesome's free brands where simple-icons
 * has none, `any-other` for the neutral glyph of 'Any other', or null where neither set has the brand (the
 * UI then shows its initials). `rentOptKey` points at the matching long-term rent option, when there is one.
 */
export interface Service {
  code: string;
  name: string;
  icon: string | null;
  rentOptKey: string | null;
}

/** The code meaning "any other service": what a buyer picks when the site they need is not listed. */
export const OTHER_SERVICE_CODE = 'ot';

export const services: readonly Service[] = [
  { code: 'vk', name: 'VKontakte', icon: 'vk', rentOptKey: 'opt69' },
  { code: 'ok', name: 'Odnoklassniki', icon: 'odnoklassniki', rentOptKey: 'opt5' },
  { code: 'wa', name: 'WhatsApp', icon: 'whatsapp', rentOptKey: 'opt20' },
  { code: 'vi', name: 'Viber', icon: 'viber', rentOptKey: 'opt11' },
  { code: 'tg', name: 'Telegram', icon: 'telegram', rentOptKey: 'opt29' },
  { code: 'wb', name: 'WeChat', icon: 'wechat', rentOptKey: 'opt67' },
  { code: 'go', name: 'Google, YouTube, Gmail', icon: 'google', rentOptKey: 'opt1' },
  { code: 'av', name: 'Avito', icon: null, rentOptKey: 'opt59' },
  { code: 'fb', name: 'Facebook', icon: 'facebook', rentOptKey: 'opt2' },
  { code: 'tw', name: 'Twitter (X)', icon: 'x', rentOptKey: 'opt41' },
  { code: 'ub', name: 'Uber', icon: 'uber', rentOptKey: 'opt72' },
  { code: 'qw', name: 'Qiwi', icon: 'qiwi', rentOptKey: 'opt18' },
  { code: 'gt', name: 'Gett', icon: null, rentOptKey: 'opt35' },
  { code: 'sn', name: 'OLX', icon: null, rentOptKey: null },
  { code: 'ig', name: 'Instagram', icon: 'instagram', rentOptKey: 'opt16' },
  { code: 'ss', name: 'Hezzl', icon: null, rentOptKey: null },
  { code: 'ym', name: 'Youla', icon: null, rentOptKey: null },
  { code: 'ma', name: 'Mail.ru', icon: 'maildotru', rentOptKey: 'opt33' },
  { code: 'mg', name: 'Magnit', icon: null, rentOptKey: null },
  { code: 'mm', name: 'Microsoft', icon: 'fa:microsoft', rentOptKey: 'opt15' },
  { code: 'uk', name: 'Airbnb', icon: 'airbnb', rentOptKey: 'opt46' },
  { code: 'me', name: 'Line', icon: 'line', rentOptKey: 'opt37' },
  { code: 'mb', name: 'Yahoo', icon: 'fa:yahoo', rentOptKey: 'opt65' },
  { code: 'we', name: 'DrugVokrug', icon: null, rentOptKey: 'opt31' },
  { code: 'bd', name: 'X5ID', icon: null, rentOptKey: null },
  { code: 'kp', name: 'HQ Trivia', icon: null, rentOptKey: null },
  { code: 'ya', name: 'Yandex', icon: 'fa:yandex', rentOptKey: 'opt23' },
  { code: 'mt', name: 'Steam', icon: 'steam', rentOptKey: 'opt58' },
  { code: 'oi', name: 'Tinder', icon: 'tinder', rentOptKey: 'opt9' },
  { code: 'fd', name: 'Mamba', icon: null, rentOptKey: null },
  { code: 'zz', name: 'Dent', icon: null, rentOptKey: null },
  { code: 'kt', name: 'KakaoTalk', icon: 'kakaotalk', rentOptKey: 'opt213' },
  { code: 'pm', name: 'AOL', icon: null, rentOptKey: 'opt10' },
  { code: 'tn', name: 'LinkedIn', icon: 'fa:linkedin', rentOptKey: 'opt8' },
  { code: OTHER_SERVICE_CODE, name: 'Any other', icon: 'any-other', rentOptKey: 'opt19' },

  { code: 'ds', name: 'Discord', icon: 'discord', rentOptKey: 'opt45' },
  { code: 'lf', name: 'TikTok', icon: 'tiktok', rentOptKey: 'opt104' },
  { code: 'am', name: 'Amazon', icon: 'fa:amazon', rentOptKey: 'opt44' },
  { code: 'nf', name: 'Netflix', icon: 'netflix', rentOptKey: 'opt203' },
  { code: 'ts', name: 'PayPal', icon: 'paypal', rentOptKey: 'opt83' },
  { code: 'bw', name: 'Signal', icon: 'signal', rentOptKey: 'opt127' },
  { code: 'fu', name: 'Snapchat', icon: 'snapchat', rentOptKey: 'opt90' },
  { code: 'wx', name: 'Apple', icon: 'apple', rentOptKey: 'opt204' },
  { code: 'dr', name: 'OpenAI (ChatGPT)', icon: 'fa:openai', rentOptKey: 'opt205' },
  { code: 'acz', name: 'Claude', icon: 'claude', rentOptKey: 'opt212' },
  { code: 'aon', name: 'Binance', icon: 'binance', rentOptKey: 'opt206' },
  { code: 're', name: 'Coinbase', icon: 'coinbase', rentOptKey: 'opt112' },
  { code: 'ij', name: 'Revolut', icon: 'revolut', rentOptKey: 'opt210' },
  { code: 'bt', name: 'Betfair', icon: 'betfair', rentOptKey: 'opt211' },
  { code: 'mo', name: 'Bumble', icon: null, rentOptKey: 'opt209' },
  { code: 'qv', name: 'Badoo', icon: 'badoo', rentOptKey: 'opt56' },
  { code: 'ka', name: 'Shopee', icon: 'shopee', rentOptKey: 'opt214' },
  { code: 'hw', name: 'Alibaba, Alipay', icon: 'alipay', rentOptKey: 'opt215' },
  { code: 'nv', name: 'Naver', icon: 'naver', rentOptKey: 'opt73' },
  { code: 'qq', name: 'Tencent QQ', icon: 'qq', rentOptKey: 'opt34' },
  { code: 'ew', name: 'Nike', icon: 'nike', rentOptKey: null },
  { code: 'dh', name: 'eBay', icon: 'ebay', rentOptKey: 'opt207' },
  { code: 'alj', name: 'Spotify', icon: 'spotify', rentOptKey: 'opt208' },
  { code: 'zm', name: 'Zoom', icon: 'zoom', rentOptKey: null },
  { code: 'cn', name: 'Fiverr', icon: 'fiverr', rentOptKey: 'opt6' },
  { code: 'tx', name: 'Bolt', icon: null, rentOptKey: 'opt81' },
  { code: 'tu', name: 'Lyft', icon: 'lyft', rentOptKey: null },
  { code: 'hb', name: 'Twitch', icon: 'twitch', rentOptKey: null },
  { code: 'jg', name: 'Grab', icon: 'grab', rentOptKey: null },
  { code: 'ep', name: 'Temu', icon: null, rentOptKey: null },
  { code: 'kc', name: 'Vinted', icon: 'vinted', rentOptKey: null },
];

const servicesByCode = new Map(services.map((service) => [service.code, service]));

export function serviceByCode(code: string): Service | undefined {
  return servicesByCode.get(code);
}

/** Brands their own market writes in its script (ВКонтакте, Авито): named by the catalogue per language. */
const LOCALLY_NAMED = new Set(['vk', 'ok', 'av', 'ym', 'mg', 'we', 'ya', 'fd']);
const localNameKey = (code: string) => `catalog.localName${code[0]!.toUpperCase()}${code.slice(1)}`;

/**
 * A service's name as people of the current language read it: brands as they are (those of the
 * Russian-speaking market in Cyrillic for Russian readers), the one name that is a description ('Any
 * other') in the language. `name` is what an answer carried, for a code the list lacks.
 */
export function serviceDisplayName(code: string, name?: string): string {
  if (code === OTHER_SERVICE_CODE) return translate('catalog.anyOther');
  if (LOCALLY_NAMED.has(code)) return translate(localNameKey(code));
  return serviceByCode(code)?.name ?? name ?? code;
}

import { OTHER_SERVICE_CODE, serviceDisplayName } from './services';

/**
 * Options offered for long-term rent, keyed `opt<N>` as the spec's dashboard does. The numbers follow
 * SMSPVA's mapping where it has one (docs/protocols.md PART C); options it lacks, and the voice-code
 * variants, use numbers from 200 up that it does not use. `service` is the canonical one-time service
 * code the rent is bought for upstream.
 */
export interface RentService {
  key: string;
  name: string;
  service: string;
  icon: string | null;
}

export const rentServices: readonly RentService[] = [
  { key: 'opt19', name: 'Any other', service: 'ot', icon: 'any-other' },
  { key: 'opt202', name: 'Any other (voice code)', service: 'ot', icon: 'any-other' },
  { key: 'opt29', name: 'Telegram', service: 'tg', icon: 'telegram' },
  { key: 'opt200', name: 'Telegram (voice code)', service: 'tg', icon: 'telegram' },
  { key: 'opt20', name: 'WhatsApp', service: 'wa', icon: 'whatsapp' },
  { key: 'opt201', name: 'WhatsApp (voice code)', service: 'wa', icon: 'whatsapp' },
  { key: 'opt1', name: 'Google, YouTube, Gmail', service: 'go', icon: 'google' },
  { key: 'opt2', name: 'Facebook', service: 'fb', icon: 'facebook' },
  { key: 'opt16', name: 'Instagram', service: 'ig', icon: 'instagram' },
  { key: 'opt41', name: 'Twitter (X)', service: 'tw', icon: 'x' },
  { key: 'opt104', name: 'TikTok', service: 'lf', icon: 'tiktok' },
  { key: 'opt45', name: 'Discord', service: 'ds', icon: 'discord' },
  { key: 'opt90', name: 'Snapchat', service: 'fu', icon: 'snapchat' },
  { key: 'opt127', name: 'Signal', service: 'bw', icon: 'signal' },
  { key: 'opt11', name: 'Viber', service: 'vi', icon: 'viber' },
  { key: 'opt67', name: 'WeChat', service: 'wb', icon: 'wechat' },
  { key: 'opt37', name: 'Line', service: 'me', icon: 'line' },
  { key: 'opt213', name: 'KakaoTalk', service: 'kt', icon: 'kakaotalk' },
  { key: 'opt34', name: 'Tencent QQ', service: 'qq', icon: 'qq' },
  { key: 'opt69', name: 'VKontakte', service: 'vk', icon: 'vk' },
  { key: 'opt5', name: 'Odnoklassniki', service: 'ok', icon: 'odnoklassniki' },
  { key: 'opt33', name: 'Mail.ru', service: 'ma', icon: 'maildotru' },
  { key: 'opt23', name: 'Yandex', service: 'ya', icon: 'fa:yandex' },
  { key: 'opt31', name: 'DrugVokrug', service: 'we', icon: null },
  { key: 'opt59', name: 'Avito', service: 'av', icon: null },
  { key: 'opt15', name: 'Microsoft', service: 'mm', icon: 'fa:microsoft' },
  { key: 'opt65', name: 'Yahoo', service: 'mb', icon: 'fa:yahoo' },
  { key: 'opt10', name: 'AOL', service: 'pm', icon: null },
  { key: 'opt8', name: 'LinkedIn', service: 'tn', icon: 'fa:linkedin' },
  { key: 'opt204', name: 'Apple', service: 'wx', icon: 'apple' },
  { key: 'opt44', name: 'Amazon', service: 'am', icon: 'fa:amazon' },
  { key: 'opt203', name: 'Netflix', service: 'nf', icon: 'netflix' },
  { key: 'opt208', name: 'Spotify', service: 'alj', icon: 'spotify' },
  { key: 'opt207', name: 'eBay', service: 'dh', icon: 'ebay' },
  { key: 'opt214', name: 'Shopee', service: 'ka', icon: 'shopee' },
  { key: 'opt215', name: 'Alibaba, Alipay', service: 'hw', icon: 'alipay' },
  { key: 'opt73', name: 'Naver', service: 'nv', icon: 'naver' },
  { key: 'opt9', name: 'Tinder', service: 'oi', icon: 'tinder' },
  { key: 'opt209', name: 'Bumble', service: 'mo', icon: null },
  { key: 'opt56', name: 'Badoo', service: 'qv', icon: 'badoo' },
  { key: 'opt72', name: 'Uber', service: 'ub', icon: 'uber' },
  { key: 'opt81', name: 'Bolt', service: 'tx', icon: null },
  { key: 'opt35', name: 'Gett', service: 'gt', icon: null },
  { key: 'opt46', name: 'Airbnb', service: 'uk', icon: 'airbnb' },
  { key: 'opt58', name: 'Steam', service: 'mt', icon: 'steam' },
  { key: 'opt6', name: 'Fiverr', service: 'cn', icon: 'fiverr' },
  { key: 'opt83', name: 'PayPal', service: 'ts', icon: 'paypal' },
  { key: 'opt210', name: 'Revolut', service: 'ij', icon: 'revolut' },
  { key: 'opt18', name: 'Qiwi', service: 'qw', icon: 'qiwi' },
  { key: 'opt206', name: 'Binance', service: 'aon', icon: 'binance' },
  { key: 'opt112', name: 'Coinbase', service: 're', icon: 'coinbase' },
  { key: 'opt211', name: 'Betfair', service: 'bt', icon: 'betfair' },
  { key: 'opt205', name: 'OpenAI (ChatGPT)', service: 'dr', icon: 'fa:openai' },
  { key: 'opt212', name: 'Claude', service: 'acz', icon: 'claude' },
];

const rentServicesByKey = new Map(rentServices.map((option) => [option.key, option]));

export function rentServiceByKey(key: string): RentService | undefined {
  return rentServicesByKey.get(key);
}

/**
 * A rent option's name as the reader reads it: 'Any other' is a description, not a brand, so it is
 * translated; every other name is a brand and stays as written.
 */
export function rentServiceDisplayName(key: string, name: string): string {
  const option = rentServiceByKey(key);
  return option?.service === OTHER_SERVICE_CODE && option.name === 'Any other'
    ? serviceDisplayName(OTHER_SERVICE_CODE)
    : name;
}

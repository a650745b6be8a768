/**
 * 5sim names products in words; ours are SMS-Activate's two-letter codes. Services 5sim does not sell under
 * one of these names are simply not offered from it.
 */
export const FIVESIM_PRODUCTS: Readonly<Record<string, string>> = {
  tg: 'telegram',
  wa: 'whatsapp',
  vi: 'viber',
  wb: 'wechat',
  go: 'google',
  fb: 'facebook',
  tw: 'twitter',
  ub: 'uber',
  ig: 'instagram',
  vk: 'vkontakte',
  ok: 'odnoklassniki',
  av: 'avito',
  ma: 'mailru',
  mm: 'microsoft',
  uk: 'airbnb',
  me: 'line',
  mb: 'yahoo',
  ya: 'yandex',
  mt: 'steam',
  oi: 'tinder',
  kt: 'kakaotalk',
  pm: 'aol',
  tn: 'linkedin',
  ot: 'other',
  ds: 'discord',
  lf: 'tiktok',
  am: 'amazon',
  nf: 'netflix',
  ts: 'paypal',
  bw: 'signal',
  fu: 'snapchat',
  wx: 'apple',
  dr: 'openai',
  acz: 'claude',
  aon: 'binance',
  re: 'coinbase',
  ij: 'revolut',
  bt: 'betfair',
};

export const FIVESIM_SERVICES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FIVESIM_PRODUCTS).map(([code, product]) => [product, code]),
);

import { OTHER_SERVICE_CODE, serviceByCode, services } from '@simcode/contract';
import { hashUnit, type SeededRandom } from './random';

/** How a service writes its codes: length, and whether it splits them as `123-456` (WhatsApp does). */
interface CodeStyle {
  digits: number;
  dashed?: boolean;
}

const CODE_STYLES: Readonly<Record<string, CodeStyle>> = {
  tg: { digits: 5 },
  wa: { digits: 6, dashed: true },
  go: { digits: 6 },
  fb: { digits: 5 },
  ig: { digits: 6 },
  tw: { digits: 6 },
  vk: { digits: 6 },
  ds: { digits: 6 },
  lf: { digits: 4 },
  oi: { digits: 6 },
  bw: { digits: 6, dashed: true },
  fu: { digits: 6 },
  wx: { digits: 6 },
};

/** Texts modelled on what the services really send; `{code}` is replaced. */
const TEMPLATES: Readonly<Record<string, string>> = {
  tg: 'Telegram code: {code}. Do not give this code to anyone, even if they say they are from Telegram!',
  wa: "Your WhatsApp code: {code}\nDon't share this code with others",
  go: 'G-{code} is your Google verification code.',
  fb: '{code} is your Facebook confirmation code',
  ig: "{code} is your Instagram code. Don't share it.",
  tw: '{code} is your X verification code.',
  vk: 'VK: {code} is your login code. Do not share it with anyone.',
  ok: '{code} - your OK.ru confirmation code.',
  vi: 'Your Viber code is {code}',
  wb: '[WeChat] Your verification code is {code}. It expires in 5 minutes. Do not share it.',
  ds: 'Your Discord security code is: {code}',
  lf: '[TikTok] {code} is your verification code, valid for 5 minutes. To keep your account safe, never forward this code.',
  am: '{code} is your Amazon OTP. Do not share it with anyone.',
  ts: "PayPal: {code} is your security code. Don't share your code.",
  ub: 'Your Uber code: {code}. Never share this code.',
  oi: "Your Tinder code is {code}. Don't share",
  wx: "Your Apple Account code is: {code}. Don't share it with anyone.",
  dr: 'Your OpenAI verification code is: {code}',
  mm: 'Use {code} as Microsoft account security code',
  nf: 'Your Netflix verification code is {code}. Never share this code.',
  bw: 'SIGNAL: Your code is: {code}. Do not share this code.',
  fu: 'Snapchat code: {code}. Happy Snapping!',
  aon: '[Binance] Your verification code: {code}. Do not share this code with anyone.',
  mt: 'Steam: your verification code is {code}',
};

const DEFAULT_TEMPLATE = 'Your {name} verification code is {code}. Do not share it.';

/** Plain notices a long-term number also receives, so a rent inbox does not read like a list of codes. */
const NOTICES: ReadonlyArray<{ from: string; text: string }> = [
  { from: 'DHL', text: 'Your parcel will be delivered today between 10:00 and 14:00. Track: dhl.com/track' },
  { from: 'Revolut', text: 'Your card was used for a payment of 12.40 EUR. Not you? Freeze it in the app.' },
  { from: 'Bolt', text: 'Your driver is arriving in 3 minutes in a grey Toyota Prius.' },
  { from: 'Amazon', text: 'Your package was delivered. Thanks for shopping with us.' },
  { from: 'Booking', text: 'Your reservation is confirmed. Check-in from 15:00.' },
  { from: 'Vodafone', text: 'Welcome! Your data bundle of 10 GB is now active until the end of the month.' },
  { from: 'Glovo', text: 'Your order is on its way. Estimated arrival: 25 minutes.' },
  {
    from: 'FedEx',
    text: 'A delivery attempt failed. Reschedule at fedex.com with tracking number 7729 4410 1183.',
  },
  { from: 'Airbnb', text: 'Reminder: your stay begins tomorrow. Message your host for check-in details.' },
  { from: 'Wise', text: 'You received 150.00 USD. The money is now in your balance.' },
];

export interface GeneratedSms {
  from: string;
  text: string;
  code: string | null;
}

function codeFor(service: string, random: SeededRandom): string {
  const style = CODE_STYLES[service] ?? {
    // Services without a known style still keep one style each, like real senders do.
    digits: 4 + Math.floor(hashUnit('digits', service) * 3),
    dashed: hashUnit('dashed', service) < 0.1,
  };
  const digits = random.digits(style.digits);
  return style.dashed && style.digits === 6 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : digits;
}

const NAMED_SERVICES = services
  .filter((service) => service.code !== OTHER_SERVICE_CODE)
  .map((service) => service.code);

/** "Any other" is a real site in the end: the SMS comes from some named service. */
function concreteService(service: string, random: SeededRandom): string {
  return service === OTHER_SERVICE_CODE ? random.pick(NAMED_SERVICES) : service;
}

function senderName(service: string): string {
  return serviceByCode(service)?.name.split(/[,(]/)[0]?.trim() || 'Verify';
}

/** The verification SMS a service sends; `code` may be given to build the text around a chosen code. */
export function verificationSms(service: string, random: SeededRandom, code?: string): GeneratedSms {
  const sender = concreteService(service, random);
  const finalCode = code ?? codeFor(sender, random);
  const template = TEMPLATES[sender] ?? DEFAULT_TEMPLATE;
  return {
    from: senderName(sender),
    text: template.replace('{code}', finalCode).replace('{name}', senderName(sender)),
    code: finalCode,
  };
}

/** An SMS for a rented number: mostly codes from the rented service, now and then a notice. */
export function rentSms(service: string, random: SeededRandom): GeneratedSms {
  if (random.next() < 0.2) return { ...random.pick(NOTICES), code: null };
  return verificationSms(service, random);
}

/** The code in a text someone typed into the control API: the first group of 4-8 digits, dashes allowed. */
export function extractCode(text: string): string | null {
  return /\b\d{3}-\d{3}\b|\b\d{4,8}\b/.exec(text)?.[0] ?? null;
}

import { formatCents } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import {
  codeForForms,
  formatDateTime,
  formatDollars,
  formatPhone,
  formatTime,
  phoneForForms,
  withArticle,
} from './format';

describe('money', () => {
  it('has a thousands separator and two decimals, from cents or from the API dollars', () => {
    expect(formatCents(1_000_000)).toBe('$10,000.00');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatDollars(1234.5)).toBe('$1,234.50');
    expect(formatDollars(0.1 + 0.2)).toBe('$0.30');
  });
});

describe('formatPhone', () => {
  it('writes a number as its country does, in international form', () => {
    expect(formatPhone('447477396349')).toBe('+44 7477 396349');
    expect(formatPhone('12025550143')).toBe('+1 202 555 0143');
    expect(formatPhone('+79161234567')).toBe('+7 916 123 45 67');
  });

  it('keeps what it cannot place as +digits', () => {
    expect(formatPhone('123')).toBe('+123');
  });

  it('matches the landing page’s examples, which are written out to keep the library off that page', () => {
    expect(formatPhone('447700900123')).toBe('+44 7700 900123');
    expect(formatPhone('12025550143')).toBe('+1 202 555 0143');
  });
});

describe('withArticle', () => {
  it.each([
    ['Airbnb', 'an Airbnb'],
    ['OLX', 'an OLX'],
    ['AOL', 'an AOL'],
    ['Instagram', 'an Instagram'],
    ['Uber', 'a Uber'],
    ['Upwork', 'an Upwork'],
    ['Telegram', 'a Telegram'],
    ['Yahoo', 'a Yahoo'],
  ])('%s → %s', (name, expected) => {
    expect(withArticle(name)).toBe(expected);
  });
});

describe('what the copy buttons copy', () => {
  it('gives a sign-up form digits: the international number and the national one without the country code', () => {
    expect(phoneForForms('+855 17 536 036')).toEqual({ international: '+85517536036', national: '17536036' });
    expect(phoneForForms('447477396349')).toEqual({ international: '+447477396349', national: '7477396349' });
    expect(phoneForForms('123')).toEqual({ international: '+123', national: null });
  });

  it('types a code without its separators', () => {
    expect(codeForForms('360-712')).toBe('360712');
    expect(codeForForms('360 712')).toBe('360712');
    expect(codeForForms('G-AB12')).toBe('GAB12');
  });
});

describe('times', () => {
  it('writes a message time on the same 24-hour clock as every other date and time', () => {
    const at = new Date(2026, 10, 27, 17, 21);
    expect(formatTime(at)).toBe('17:21');
    expect(formatDateTime(at)).toContain('17:21');
  });
});

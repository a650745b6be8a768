import { describe, expect, it } from 'vitest';
import {
  extractSmsCode,
  LONG_TERM_DEFAULT_HOURS,
  LONG_TERM_MAX_HOURS,
  LONG_TERM_MIN_HOURS,
  parseRentPeriod,
  periodText,
  RENEWABLE_DEFAULT,
  renewablePeriodHours,
  renewRequestSchema,
  rentNumberRequestSchema,
} from './rentals';

describe('rent periods', () => {
  it('counts a renewable week as 168 hours and a month as 720', () => {
    expect(renewablePeriodHours('week', 1)).toBe(168);
    expect(renewablePeriodHours('week', 7)).toBe(1176);
    expect(renewablePeriodHours('month', 1)).toBe(720);
    expect(renewablePeriodHours('month', 2)).toBe(1440);
    expect(renewablePeriodHours('month', 3)).toBe(2160);
    expect(RENEWABLE_DEFAULT).toEqual({ unit: 'week', count: 1 });
  });

  it('keeps long-term rents between the terms of 4 hours and 1 month, 24 by default', () => {
    expect([LONG_TERM_MIN_HOURS, LONG_TERM_DEFAULT_HOURS, LONG_TERM_MAX_HOURS]).toEqual([4, 24, 720]);
  });

  it('writes the period texts the rent-number call sends', () => {
    expect(periodText('hour', 24)).toBe('24 hours');
    expect(periodText('week', 1)).toBe('1 week');
    expect(periodText('week', 2)).toBe('2 weeks');
    expect(periodText('month', 1)).toBe('1 month');
    expect(periodText('month', 3)).toBe('3 months');
  });

  it.each([
    ['24 hours', { unit: 'hour', count: 24, hours: 24, renewable: false }],
    ['4 hours', { unit: 'hour', count: 4, hours: 4, renewable: false }],
    ['720 hours', { unit: 'hour', count: 720, hours: 720, renewable: false }],
    [' 2 Weeks ', { unit: 'week', count: 2, hours: 336, renewable: true }],
    ['1 week', { unit: 'week', count: 1, hours: 168, renewable: true }],
    ['7 weeks', { unit: 'week', count: 7, hours: 1176, renewable: true }],
    ['1 month', { unit: 'month', count: 1, hours: 720, renewable: true }],
    ['3 months', { unit: 'month', count: 3, hours: 2160, renewable: true }],
  ])('reads %j', (text, period) => {
    expect(parseRentPeriod(text)).toEqual(period);
  });

  it.each([
    '1 hour',
    '3 hours',
    '721 hours',
    '0 weeks',
    '8 weeks',
    '0 months',
    '4 months',
    '2 days',
    'forever',
    '',
    '24',
    'hours 24',
    '-1 weeks',
    '1.5 weeks',
  ])('refuses %j', (text) => {
    expect(parseRentPeriod(text)).toBeNull();
  });

  it('accepts a rent-number body only when periodID is the period in hours', () => {
    const body = { countryID: 'us', service: 'opt29', period: '1 month', periodID: 720 };
    expect(rentNumberRequestSchema.parse(body)).toMatchObject({ countryID: 'US', periodID: 720 });
    const original = rentNumberRequestSchema.safeParse({ ...body, periodID: 168 });
    expect(original.success).toBe(false);
    expect(original.error?.issues[0]).toMatchObject({
      path: ['periodID'],
      message: expect.stringMatching(/720 hours/),
    });
    expect(rentNumberRequestSchema.safeParse({ ...body, period: '1 hour', periodID: 1 }).success).toBe(false);
  });

  it('bounds a renewal to 1 to 720 hours', () => {
    expect(renewRequestSchema.safeParse({ periodID: 1 }).success).toBe(true);
    expect(renewRequestSchema.safeParse({ periodID: 720 }).success).toBe(true);
    expect(renewRequestSchema.safeParse({ periodID: 0 }).success).toBe(false);
    expect(renewRequestSchema.safeParse({ periodID: 721 }).success).toBe(false);
    expect(renewRequestSchema.safeParse({ periodID: 2.5 }).success).toBe(false);
  });
});

describe('extractSmsCode', () => {
  it.each([
    ['Telegram code: 12345. Do not give this code to anyone', '12345'],
    ["Your WhatsApp code: 123-456\nDon't share this code", '123-456'],
    ['G-482913 is your Google verification code.', '482913'],
    ['Your code is 1234.', '1234'],
    ['Your parcel arrives between 10:00 and 14:00.', null],
    ['Reschedule with tracking number 7729 4410 1183.', null],
    ['You received 150.00 USD.', null],
    ['Call +12025550123 for help', null],
    ['No code here', null],
  ])('%j → %s', (text, code) => {
    expect(extractSmsCode(text)).toBe(code);
  });
});

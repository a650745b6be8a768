import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents, decimalToUnits, unitsToDecimal } from './amounts';

describe('decimalToCents', () => {
  it('converts provider decimals exactly', () => {
    expect(decimalToCents('16.00000000')).toBe(1600);
    expect(decimalToCents('10')).toBe(1000);
    expect(decimalToCents('0.29')).toBe(29);
    expect(decimalToCents('1.1')).toBe(110);
    expect(decimalToCents('0.00')).toBe(0);
    expect(decimalToCents('9999999999999.99')).toBe(999_999_999_999_999);
    expect(decimalToCents(10.5)).toBe(1050);
  });

  it('rounds half up to the cent', () => {
    expect(decimalToCents('16.005')).toBe(1601);
    expect(decimalToCents('16.00499999')).toBe(1600);
    expect(decimalToCents('0.995')).toBe(100);
    expect(decimalToCents('1.0049')).toBe(100);
  });

  it('rejects nonsense', () => {
    for (const value of [
      '',
      ' 1',
      '1 ',
      '-1',
      '+1',
      '1.',
      '.5',
      '1,5',
      '1e3',
      'NaN',
      '0x10',
      '1.2.3',
      '12345678901234',
    ]) {
      expect(decimalToCents(value), JSON.stringify(value)).toBeNull();
    }
    for (const value of [null, undefined, true, {}, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e-7]) {
      expect(decimalToCents(value), String(value)).toBeNull();
    }
  });
});

describe('decimalToUnits', () => {
  it('counts in any number of decimals, rounding half up', () => {
    expect(decimalToUnits('0.001', 8)).toBe(100_000);
    expect(decimalToUnits('0.000205666', 8)).toBe(20_567);
    expect(decimalToUnits('166.66666666', 8)).toBe(16_666_666_666);
    expect(decimalToUnits('12', 0)).toBe(12);
    expect(decimalToUnits('12.5', 0)).toBe(13);
  });

  it('refuses amounts too large to count exactly', () => {
    expect(decimalToUnits('90071992.54740991', 8)).toBe(Number.MAX_SAFE_INTEGER);
    expect(decimalToUnits('90071992.54740992', 8)).toBeNull();
    expect(decimalToUnits('9999999999999', 8)).toBeNull();
  });
});

describe('unitsToDecimal', () => {
  it('prints the given number of decimals', () => {
    expect(unitsToDecimal(100_000, 8)).toBe('0.00100000');
    expect(unitsToDecimal(16_666_666_666, 8)).toBe('166.66666666');
    expect(unitsToDecimal(7, 0)).toBe('7');
  });
});

describe('centsToDecimal', () => {
  it('prints two decimals', () => {
    expect(centsToDecimal(1234)).toBe('12.34');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(100_000_000)).toBe('1000000.00');
  });

  it('refuses fractions and negatives', () => {
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
    expect(() => centsToDecimal(-1)).toThrow(RangeError);
  });
});

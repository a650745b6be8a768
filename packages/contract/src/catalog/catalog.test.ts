/// <reference types="node" />
// The contract itself is browser-safe; only this test reads the file system, to check icon and flag names.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countries, countryById } from './countries';
import { rentServiceByKey, rentServices } from './rent-services';
import { serviceByCode, services } from './services';

/** Spec section 3, in its order. */
const SPEC_CODES_TEXT =
  'vk ok wa vi tg wb go av fb tw ub qw gt sn ig ss ym ma mg mm uk me mb we bd kp ya mt oi fd zz kt pm tn ot';
const SPEC_SERVICE_CODES = SPEC_CODES_TEXT.split(' ');

/** Packages are hoisted to the repository root by npm workspaces; a workspace may keep its own copy. */
function packageDir(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${name} is not installed`);
    dir = parent;
  }
}

function duplicates(values: string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

describe('countries', () => {
  it('lists at least 184 countries with unique ISO ids, names and digit dial codes', () => {
    expect(countries.length).toBeGreaterThanOrEqual(184);
    expect(duplicates(countries.map((country) => country.id))).toEqual([]);
    expect(duplicates(countries.map((country) => country.name))).toEqual([]);
    for (const country of countries) {
      expect(country.id).toMatch(/^[A-Z]{2}$/);
      expect(country.dialCode).toMatch(/^[1-9]\d{0,2}$/);
    }
  });

  it('has a flag-icons flag for every country', () => {
    const flags = path.join(packageDir('flag-icons'), 'flags', '4x3');
    const missing = countries.filter(
      (country) => !existsSync(path.join(flags, `${country.id.toLowerCase()}.svg`)),
    );
    expect(missing).toEqual([]);
  });

  it('finds a country by id in either case', () => {
    expect(countryById('gb')).toEqual({ id: 'GB', name: 'United Kingdom', dialCode: '44' });
    expect(countryById('US')?.dialCode).toBe('1');
    expect(countryById('XX')).toBeUndefined();
  });
});

describe('services', () => {
  it('contains every code of the spec and no duplicates', () => {
    const codes = services.map((service) => service.code);
    expect(duplicates(codes)).toEqual([]);
    expect(SPEC_SERVICE_CODES.filter((code) => !codes.includes(code))).toEqual([]);
    expect(codes.length).toBeGreaterThanOrEqual(SPEC_SERVICE_CODES.length + 25);
    for (const code of codes) expect(code).toMatch(/^[a-z]{2,4}$/);
    expect(serviceByCode('tg')?.name).toBe('Telegram');
  });

  it('points every rent option key at an option for the same service', () => {
    for (const service of services) {
      if (service.rentOptKey === null) continue;
      expect(rentServiceByKey(service.rentOptKey)?.service, service.code).toBe(service.code);
    }
  });
});

describe('rent services', () => {
  it('has at least 40 options with unique opt keys, each for a known service', () => {
    expect(rentServices.length).toBeGreaterThanOrEqual(40);
    expect(duplicates(rentServices.map((option) => option.key))).toEqual([]);
    for (const option of rentServices) {
      expect(option.key).toMatch(/^opt\d+$/);
      expect(serviceByCode(option.service), option.key).toBeDefined();
    }
  });

  it('has voice-code variants for Telegram, WhatsApp and any other service', () => {
    const voice = rentServices.filter((option) => option.name.endsWith('(voice code)'));
    expect(voice.map((option) => option.service).sort()).toEqual(['ot', 'tg', 'wa']);
  });

  it('keeps the option numbers of the SMSPVA mapping', () => {
    expect(rentServiceByKey('opt19')?.service).toBe('ot');
    expect(rentServiceByKey('opt1')?.service).toBe('go');
    expect(rentServiceByKey('opt2')?.service).toBe('fb');
    expect(rentServiceByKey('opt29')?.service).toBe('tg');
    expect(rentServiceByKey('opt20')?.service).toBe('wa');
    expect(rentServiceByKey('opt16')?.service).toBe('ig');
    expect(rentServiceByKey('opt41')?.service).toBe('tw');
    expect(rentServiceByKey('opt104')?.service).toBe('lf');
  });
});

describe('icons', () => {
  it('names only icons that exist in simple-icons, besides the Font Awesome brands and the neutral glyph', () => {
    const icons = path.join(packageDir('simple-icons'), 'icons');
    const slugs = [...services, ...rentServices].flatMap((entry) =>
      entry.icon === null || entry.icon.startsWith('fa:') || entry.icon === 'any-other' ? [] : [entry.icon],
    );
    expect(slugs.filter((slug) => !existsSync(path.join(icons, `${slug}.svg`)))).toEqual([]);
  });

  it('gives Any other its neutral glyph', () => {
    expect(serviceByCode('ot')?.icon).toBe('any-other');
  });
});

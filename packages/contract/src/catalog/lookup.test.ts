import { describe, expect, it } from 'vitest';
import { findCountry, findService } from './lookup';

describe('names as people write them', () => {
  it.each([
    ['Israel', 'IL'],
    ['israel', 'IL'],
    ['IL', 'IL'],
    ['il', 'IL'],
    ['United Kingdom', 'GB'],
    ['UK', 'GB'],
    ['USA', 'US'],
    ["Cote d'Ivoire", 'CI'],
    ['Atlantis', undefined],
    ['constructor', undefined],
    ['  South   Korea ', 'KR'],
  ])('finds the country %s', (text, id) => {
    expect(findCountry(text)?.id).toBe(id);
  });

  it.each([
    ['Telegram', 'tg'],
    ['telegram', 'tg'],
    ['tg', 'tg'],
    ['WhatsApp', 'wa'],
    ['Whats App', undefined],
    ['Gmail', 'go'],
    ['X', 'tw'],
    ['Twitter', 'tw'],
    ['no such site', undefined],
    ['toString', undefined],
  ])('finds the service %s', (text, code) => {
    expect(findService(text)?.code).toBe(code);
  });
});

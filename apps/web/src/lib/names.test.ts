import { describe, expect, it } from 'vitest';
import { serviceInSentence } from './names';

describe('serviceInSentence', () => {
  it('gives a brand its article, and the one description among the services a wording of its own', () => {
    expect(serviceInSentence('OLX')).toBe('an OLX');
    expect(serviceInSentence('Telegram')).toBe('a Telegram');
    expect(serviceInSentence('Any other')).toBe('an any-other-service');
  });
});

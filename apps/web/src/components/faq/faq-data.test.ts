import { describe, expect, it } from 'vitest';
import { faqTopics, featuredFaqEntries } from './faq-data';

describe('the FAQ', () => {
  const ids = faqTopics.flatMap((topic) => [topic.id, ...topic.entries.map((entry) => entry.id)]);

  it('gives every topic and question its own fragment, usable in a URL', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('does not reuse the landing page section ids (its featured questions appear there)', () => {
    for (const section of ['hero', 'features', 'service-providers', 'how-it-works', 'faq']) {
      expect(ids).not.toContain(section);
    }
  });

  it('features a handful of questions on the landing page, every one answered', () => {
    expect(featuredFaqEntries.length).toBeGreaterThanOrEqual(4);
    expect(featuredFaqEntries.length).toBeLessThanOrEqual(8);
    for (const topic of faqTopics) {
      for (const entry of topic.entries) expect(entry.answer.join('').length).toBeGreaterThan(0);
    }
  });
});

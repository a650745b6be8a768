import { i18n } from '@/i18n/index';

/**
 * The questions and answers of the /faq page and of the landing page's FAQ section (the entries marked
 * `featured`), written from the spec's facts (sections 1, 4, 8 and 9). The texts are the `faq` catalogue's,
 * under each topic's and question's id, read when rendered so they follow the current language. Answers
 * are plain paragraphs, so the page can search them.
 */
export interface FaqEntry {
  /** The fragment that links to the question on /faq, e.g. /faq#cancel-a-number. */
  id: string;
  readonly question: string;
  readonly answer: readonly string[];
  /** Also shown in the landing page's FAQ section. */
  featured?: boolean;
}

export interface FaqTopic {
  id: string;
  readonly title: string;
  entries: readonly FaqEntry[];
}

function entry(id: string, featured?: true): FaqEntry {
  return {
    id,
    get question() {
      return i18n.t(`faq:entries.${id}.question`);
    },
    get answer() {
      return i18n.t(`faq:entries.${id}.answer`, { returnObjects: true }) as readonly string[];
    },
    ...(featured && { featured }),
  };
}

function topic(id: string, entries: readonly FaqEntry[]): FaqTopic {
  return {
    id,
    get title() {
      return i18n.t(`faq:topics.${id}`);
    },
    entries,
  };
}

export const faqTopics: readonly FaqTopic[] = [
  topic('getting-started', [
    entry('how-does-it-work', true),
    entry('real-sim-numbers', true),
    entry('exclusive-numbers'),
    entry('countries', true),
    entry('services'),
    entry('availability-updates'),
  ]),
  topic('one-time-numbers', [
    entry('twenty-minute-window', true),
    entry('cancel-a-number'),
    entry('prices'),
    entry('more-than-200-sms'),
  ]),
  topic('rentals', [entry('long-term-numbers', true), entry('renewable-numbers')]),
  topic('payments', [entry('add-funds'), entry('crypto-crediting-time', true), entry('deposit-refunds')]),
  topic('troubleshooting', [
    entry('no-swap-numbers'),
    entry('blocked-or-busy-number'),
    entry('number-cannot-be-used'),
    entry('code-does-not-arrive'),
  ]),
  topic('support', [entry('contact-support')]),
];

export const featuredFaqEntries: readonly FaqEntry[] = faqTopics.flatMap((topic) =>
  topic.entries.filter((entry) => entry.featured),
);

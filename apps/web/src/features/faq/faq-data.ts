/**
 * The questions and answers of the /faq page and of the landing page's FAQ section (the entries marked
 * `featured`), written from the spec's facts (sections 1, 4, 8 and 9). Answers are plain paragraphs, so
 * the page can search them.
 */
export interface FaqEntry {
  /** The fragment that links to the question on /faq, e.g. /faq#cancel-a-number. */
  id: string;
  question: string;
  answer: readonly string[];
  /** Also shown in the landing page's FAQ section. */
  featured?: boolean;
}

export interface FaqTopic {
  id: string;
  title: string;
  entries: readonly FaqEntry[];
}

export const faqTopics: readonly FaqTopic[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    entries: [
      {
        id: 'how-does-it-work',
        question: 'How does it work?',
        answer: [
          'Create an account, add funds to your USD balance with cryptocurrency, then choose a service and a country and buy a number. The number is active at once: enter it on the site you are signing up to, and the verification code appears in My Numbers as soon as the SMS arrives.',
        ],
        featured: true,
      },
      {
        id: 'real-sim-numbers',
        question: 'What is a real-SIM (non-VoIP) number?',
        answer: [
          'Every number is an ordinary mobile number on a physical SIM card, not a virtual VoIP line. Many platforms refuse VoIP numbers for verification; a real-SIM number is the kind of number they expect.',
        ],
        featured: true,
      },
      {
        id: 'exclusive-numbers',
        question: 'Is a number shared with other people?',
        answer: ['No. Numbers are exclusive: a number you buy is yours alone and is never resold.'],
      },
      {
        id: 'countries',
        question: 'Which countries are available?',
        answer: [
          'Numbers come from 180+ countries. How many have numbers on sale right now is counted on the dashboard (Total Countries); choose a country there to see its operators and the services you can buy a number for.',
        ],
        featured: true,
      },
      {
        id: 'services',
        question: 'Which services can I receive codes from?',
        answer: [
          'More than 1,000 services, among them social networks, messengers, banks and AI tools. If the site you need is not listed, choose “Any other”.',
        ],
      },
      {
        id: 'availability-updates',
        question: 'How often is the number availability updated?',
        answer: ['Every minute.'],
      },
    ],
  },
  {
    id: 'one-time-numbers',
    title: 'One-time numbers and refunds',
    entries: [
      {
        id: 'twenty-minute-window',
        question: 'How long do I have to receive the code?',
        answer: [
          'A one-time number waits 20 minutes for an SMS. If no SMS arrives in that time, the order is cancelled and its price goes back to your balance automatically: you pay only for numbers that received a code.',
        ],
        featured: true,
      },
      {
        id: 'cancel-a-number',
        question: 'Can I cancel a number?',
        answer: [
          'Yes, while no SMS has arrived: from 2 minutes after the purchase until the 20 minutes are over. Its price returns to your balance.',
          'Once an SMS has arrived, or after the 20 minutes, a number can no longer be cancelled.',
        ],
      },
      {
        id: 'prices',
        question: 'How much does a number cost?',
        answer: [
          'Prices depend on demand and differ by service and country. You see the price before you buy, and you pay only for what you use: there are no subscriptions.',
        ],
      },
      {
        id: 'more-than-200-sms',
        question: 'I need more than 200 SMS a day.',
        answer: [
          'Terms for more than 200 SMS per day are agreed individually. Contact support to arrange them.',
        ],
      },
    ],
  },
  {
    id: 'rentals',
    title: 'Long-term and renewable numbers',
    entries: [
      {
        id: 'long-term-numbers',
        question: 'What is a long-term number?',
        answer: [
          'A number you rent for a period you choose, from 4 hours to 1 month: 24 hours by default, 168 hours for a week, 720 hours for a month. It receives unlimited messages for the whole period, and you can renew it from My Long-term Numbers.',
          'Long-term numbers are in Beta.',
        ],
        featured: true,
      },
      {
        id: 'renewable-numbers',
        question: 'What is a renewable number?',
        answer: [
          'A number bought for 1 to 7 weeks or 1 to 3 months that renews automatically, so it stays yours. It receives unlimited messages.',
          'Renewable numbers are in Beta.',
        ],
      },
    ],
  },
  {
    id: 'payments',
    title: 'Payments',
    entries: [
      {
        id: 'add-funds',
        question: 'How do I add funds?',
        answer: [
          'Top up your USD balance with cryptocurrency on the Top Up Balance page. The minimum top-up is $5.',
        ],
      },
      {
        id: 'crypto-crediting-time',
        question: 'How long does a crypto payment take to arrive?',
        answer: [
          'A payment is credited once the network has confirmed it. This can take up to 12 hours, and up to 3 hours with one of our payment providers. If it has not arrived after that, contact support with the transaction ID.',
        ],
        featured: true,
      },
      {
        id: 'deposit-refunds',
        question: 'Can I get a deposit back?',
        answer: [
          'A deposit cannot be reversed once you have clicked Deposit. All sales are final except after a technical error or a charge without the service; contact support within 48 hours of the transaction, and support replies within 3 business days. The Refund Policy has the details.',
        ],
      },
    ],
  },
  {
    id: 'troubleshooting',
    title: 'Troubleshooting',
    entries: [
      {
        id: 'no-swap-numbers',
        question: 'Buying says “no swap numbers”.',
        answer: [
          'The number provider is doing technical work. Press Buy at least 5 times, at different intervals. If the message is still there after 24 hours, contact support.',
        ],
      },
      {
        id: 'blocked-or-busy-number',
        question: 'The number is blocked or busy.',
        answer: [
          'Cancel it and order another one. A cancelled number costs nothing: its price returns to your balance.',
        ],
      },
      {
        id: 'number-cannot-be-used',
        question: 'The site says “This number cannot be used for verification”.',
        answer: ['Check your proxy or VPN, or change or clear your browser, then try again.'],
      },
      {
        id: 'code-does-not-arrive',
        question: 'The code does not arrive.',
        answer: [
          'Try at least 10 numbers and wait 5 to 10 minutes for each. A number that receives no SMS within 20 minutes is refunded automatically.',
        ],
      },
    ],
  },
  {
    id: 'support',
    title: 'Support',
    entries: [
      {
        id: 'contact-support',
        question: 'How do I contact support?',
        answer: [
          'Support is available 24/7. Open a ticket on the Support page and follow the conversation there, or write to us in the support chat.',
        ],
      },
    ],
  },
];

export const featuredFaqEntries: readonly FaqEntry[] = faqTopics.flatMap((topic) =>
  topic.entries.filter((entry) => entry.featured),
);

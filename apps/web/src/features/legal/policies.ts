/**
 * The Terms of Service and the Refund Policy (spec sections 1, 8 and 9). This one text is shown in the
 * footer's dialogs and typeset into the terms PDF at build time (scripts/terms-pdf.ts), so the two never
 * disagree. Plain data with no imports: the PDF script loads it outside the bundler.
 */
export interface PolicySection {
  heading: string;
  paragraphs: readonly string[];
}

export interface Policy {
  id: 'terms' | 'refund';
  title: string;
  effective: string;
  sections: readonly PolicySection[];
}

/** Where the built app serves the PDF of both policies; a stable address to link to. */
export const TERMS_PDF_PATH = '/terms.pdf';

export const termsOfService: Policy = {
  id: 'terms',
  title: 'Terms of Service',
  effective: '2024',
  sections: [
    {
      heading: 'The service',
      paragraphs: [
        'We sell temporary phone numbers on real SIM cards (not VoIP) for receiving SMS verification codes: one-time numbers, long-term numbers and renewable numbers. Long-term and renewable numbers are offered as a Beta.',
        'You agree to use the numbers lawfully.',
      ],
    },
    {
      heading: 'Your account and balance',
      paragraphs: [
        'You need an account to buy numbers. Purchases are paid in US dollars from your account balance, which you top up with cryptocurrency.',
        'A deposit is irreversible once you have clicked Deposit. Crediting a crypto payment can take up to 12 hours, and up to 3 hours with one of our payment providers.',
        'Prices depend on demand. You see the price of a number before you buy it, and you pay only for what you use: there are no subscriptions.',
      ],
    },
    {
      heading: 'One-time numbers',
      paragraphs: [
        'A one-time number waits 20 minutes for an SMS. While no SMS has arrived you may cancel it, from 2 minutes after the purchase, and its price returns to your balance.',
        'If no SMS arrives within 20 minutes, the order is cancelled and its price is refunded to your balance automatically. Once the 20 minutes have passed, or an SMS has arrived, the order can no longer be cancelled.',
      ],
    },
    {
      heading: 'Volume',
      paragraphs: ['Receiving more than 200 SMS per day requires commercial terms agreed with support.'],
    },
    {
      heading: 'Fraud',
      paragraphs: ['If we detect fraud, we may cancel the transaction concerned and freeze the account.'],
    },
    {
      heading: 'Personal data',
      paragraphs: ['The personal data we keep is limited to your e-mail address and cookie statistics.'],
    },
    {
      heading: 'Refunds and support',
      paragraphs: [
        'Refunds are governed by the Refund Policy. Support is available 24/7 through support tickets.',
      ],
    },
  ],
};

export const refundPolicy: Policy = {
  id: 'refund',
  title: 'Refund Policy',
  effective: '2024',
  sections: [
    {
      heading: 'Final sales',
      paragraphs: [
        'All sales are final, with two exceptions: a purchase that failed because of a technical error, and a charge for which the service was not provided.',
      ],
    },
    {
      heading: 'One-time numbers',
      paragraphs: [
        'A one-time number can be cancelled or refunded within the first 20 minutes while no SMS has arrived. After that it is no longer possible.',
        'A number that receives no SMS within 20 minutes is refunded to your balance automatically.',
      ],
    },
    {
      heading: 'Asking for a refund',
      paragraphs: [
        'Contact support within 48 hours of the transaction and include its transaction ID. Support replies within 3 business days.',
      ],
    },
  ],
};

export const policies = { terms: termsOfService, refund: refundPolicy } as const;

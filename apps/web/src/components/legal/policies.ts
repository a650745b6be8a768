/**
 * The Terms of Service and the Refund Policy (spec sections 1, 8 and 9). Their text is the `legal`
 * catalogue's, under each policy's id (locales/<language>/legal.json): the dialogs show it in the current
 * language, and the terms PDF is typeset from the English one at build time (scripts/terms-pdf.ts), so the
 * English dialog and the PDF never disagree. Plain data with no imports: the PDF script loads it outside
 * the bundler.
 */
export type PolicyId = 'terms' | 'refund';

interface PolicySection {
  heading: string;
  paragraphs: readonly string[];
}

/** A policy's text, as the `legal` catalogue holds it under the policy's id. */
export interface Policy {
  title: string;
  sections: readonly PolicySection[];
}

/** The policies, by name for the places that mention one (`<PolicyButton policy={policies.terms} />`). */
export const policies = { terms: 'terms', refund: 'refund' } as const satisfies Record<PolicyId, PolicyId>;

/** The year both policies took effect. */
export const POLICIES_EFFECTIVE = '2024';

/** Where the built app serves the PDF of both policies; a stable address to link to. */
export const TERMS_PDF_PATH = '/terms.pdf';

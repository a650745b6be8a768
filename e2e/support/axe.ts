import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, injected as it is (its Playwright wrapper needs Node 22.12; CI also runs Node 20). */
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Every WCAG 2.0, 2.1 and 2.2 rule of levels A and AA that axe-core has. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** What fails the suite; 'minor' and 'moderate' findings are printed but allowed. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);
/**
 * Rules whose "needs review" answers count as violations: axe-core cannot tell whether an `aria-label` on
 * an element with no role (a card) is read, so it only asks; most screen readers ignore it.
 */
const REVIEW_AS_VIOLATION = new Set(['aria-prohibited-attr']);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is now and returns one readable line per serious or critical violation,
 * prefixed with `view` (the route, the width, the role). The script is evaluated through the DevTools
 * protocol, which the page's Content Security Policy does not govern (it forbids inline scripts, so a
 * script tag would not run).
 */
export async function axeViolations(page: Page, view: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(
    async (tags) =>
      (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{ violations: AxeViolation[]; incomplete: AxeViolation[]; passes: unknown[] }>;
          };
        }
      ).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations', 'incomplete'],
      }),
    WCAG_TAGS,
  );
  // A run that checked nothing would pass everything.
  if (results.passes.length === 0) throw new Error(`${view}: axe-core checked no rule`);
  const violations = [
    ...results.violations,
    ...results.incomplete.filter((review) => REVIEW_AS_VIOLATION.has(review.id)),
  ];
  const failing = violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''));
  for (const violation of violations.filter((each) => !failing.includes(each))) {
    console.log(
      `${view}: ${violation.impact} ${violation.id} (${violation.nodes.length}): ${violation.help}`,
    );
  }
  return failing.map(
    (violation) =>
      `${view}: ${violation.impact} ${violation.id}: ${violation.help} (${violation.helpUrl})\n` +
      violation.nodes
        .map(
          (node) =>
            `    ${node.target.join(' ')}\n      ${node.failureSummary?.replaceAll('\n', '\n      ')}`,
        )
        .join('\n'),
  );
}

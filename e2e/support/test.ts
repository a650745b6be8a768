import { test as base } from '@playwright/test';
import { serverURL } from '../playwright.config';

/**
 * Playwright's test with the page, the browser's new contexts and the request context all pointed at the
 * server of the worker running the test (see `serverURL` in the config).
 */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use, testInfo) => use(serverURL(testInfo.parallelIndex)),
});

/** The address of the server this test drives, for what needs it whole (an origin, a cookie's URL). */
export function currentBaseURL(): string {
  return serverURL(test.info().parallelIndex);
}

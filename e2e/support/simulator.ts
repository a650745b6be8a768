import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { e2eSimulatorKey } from '../playwright.config';

/** The default pool's simulated suppliers, where this server serves each. */
export const simulatorPrefixes = { 'sim-a': '/simulator', 'sim-b': '/simulator/sim-b' } as const;
export type SimulatorName = keyof typeof simulatorPrefixes;

/**
 * Changes the built-in SMS simulators' knobs (what happens to numbers bought from now on), on every
 * supplier of the pool: a purchase may be routed to either.
 */
export async function simulatorSettings(
  request: APIRequestContext,
  settings: { noSmsRate?: number; smsDelayMinMs?: number; smsDelayMaxMs?: number; earlyCancelMs?: number },
): Promise<void> {
  for (const prefix of Object.values(simulatorPrefixes)) {
    const response = await request.post(`${prefix}/control/settings`, {
      headers: { 'x-simulator-key': e2eSimulatorKey },
      data: settings,
    });
    expect(response.ok(), await response.text()).toBe(true);
  }
}

/** Calls one simulator's control API (faults, clear-faults ...). */
export async function simulatorControl(
  request: APIRequestContext,
  simulator: SimulatorName,
  command: string,
  body: unknown = {},
): Promise<void> {
  const response = await request.post(`${simulatorPrefixes[simulator]}/control/${command}`, {
    headers: { 'x-simulator-key': e2eSimulatorKey },
    data: body,
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * The two simulators' activation prices in the United States by our service code: sim-a answers
 * SMS-Activate's getPrices, sim-b 5sim's guest prices (per operator, by product name).
 */
export async function usPrices(
  request: APIRequestContext,
  fiveSimProducts: Readonly<Record<string, string>>,
): Promise<Record<SimulatorName, Record<string, { cost: number; count: number }>>> {
  const classic = await request.get('/simulator/stubs/handler_api.php', {
    params: { api_key: e2eSimulatorKey, action: 'getPrices', country: 187 },
  });
  expect(classic.ok(), await classic.text()).toBe(true);
  const simA =
    ((await classic.json()) as Record<string, Record<string, { cost: number; count: number }>>)['187'] ?? {};
  const fiveSim = await request.get('/simulator/sim-b/v1/guest/prices');
  expect(fiveSim.ok(), await fiveSim.text()).toBe(true);
  const byProduct =
    (
      (await fiveSim.json()) as Record<
        string,
        Record<string, Record<string, { cost: number; count: number }>>
      >
    ).usa ?? {};
  const simB: Record<string, { cost: number; count: number }> = {};
  for (const [code, product] of Object.entries(fiveSimProducts)) {
    const operators = Object.values(byProduct[product] ?? {});
    if (operators.length === 0) continue;
    simB[code] = {
      cost: Math.min(...operators.map((operator) => operator.cost)),
      count: operators.reduce((sum, operator) => sum + operator.count, 0),
    };
  }
  return { 'sim-a': simA, 'sim-b': simB };
}

/** Delivers an SMS to an activation or a rent at once (sim-a: rents and its numbers are there). */
export async function injectSms(
  request: APIRequestContext,
  // A rent by its number: its id at the provider is not something our API shows.
  target: { activationId: string } | { phone: string; from?: string },
  text: string,
  code?: string,
): Promise<void> {
  const response = await request.post('/simulator/control/sms', {
    headers: { 'x-simulator-key': e2eSimulatorKey },
    data: { ...target, text, ...(code ? { code } : {}) },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * Cancels a number from its card once its supplier allows: the simulators' no-cancel window is closed
 * instead of waited out, and since a real supplier's window stays what it was at the purchase, the page
 * learns of the change on its next load (another test may also have set a long window meanwhile).
 */
export async function cancelOnceAllowed(page: Page, card: Locator): Promise<void> {
  await simulatorSettings(page.request, { earlyCancelMs: 0 });
  const cancel = card.getByRole('button', { name: 'Cancel' });
  await expect(async () => {
    await page.reload();
    await expect(cancel).toBeEnabled({ timeout: 15_000 });
  }).toPass({ timeout: 90_000 });
  // Clicked once: a cancel that is slow to answer on a busy machine must not be followed by a second.
  await cancel.click();
  await expect(page.getByText('Number canceled successfully.')).toBeVisible();
}

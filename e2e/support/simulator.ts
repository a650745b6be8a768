import { type APIRequestContext, expect } from '@playwright/test';
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

/** One simulator's activation prices in a country (SMS-Activate's country id), by service code. */
export async function simulatorPrices(
  request: APIRequestContext,
  simulator: SimulatorName,
  providerCountryId: number,
): Promise<Record<string, { cost: number; count: number }>> {
  const response = await request.get(`${simulatorPrefixes[simulator]}/stubs/handler_api.php`, {
    params: { api_key: e2eSimulatorKey, action: 'getPrices', country: providerCountryId },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const prices = (await response.json()) as Record<string, Record<string, { cost: number; count: number }>>;
  return prices[String(providerCountryId)] ?? {};
}

/** Delivers an SMS to an activation or a rent at once. */
export async function injectSms(
  request: APIRequestContext,
  target: { activationId: string } | { rentId: string; from?: string },
  text: string,
  code?: string,
): Promise<void> {
  const response = await request.post('/simulator/control/sms', {
    headers: { 'x-simulator-key': e2eSimulatorKey },
    data: { ...target, text, ...(code ? { code } : {}) },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

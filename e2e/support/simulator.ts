import { type APIRequestContext, expect } from '@playwright/test';
import { e2eSimulatorKey } from '../playwright.config';

/** Changes the built-in SMS simulator's knobs (what happens to numbers bought from now on). */
export async function simulatorSettings(
  request: APIRequestContext,
  settings: { noSmsRate?: number; smsDelayMinMs?: number; smsDelayMaxMs?: number; earlyCancelMs?: number },
): Promise<void> {
  const response = await request.post('/simulator/control/settings', {
    headers: { 'x-simulator-key': e2eSimulatorKey },
    data: settings,
  });
  expect(response.ok(), await response.text()).toBe(true);
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

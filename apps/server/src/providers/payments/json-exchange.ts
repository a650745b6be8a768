import { setTimeout as sleep } from 'node:timers/promises';
import { PaymentProviderError } from './types';

export interface JsonAnswer {
  status: number;
  ok: boolean;
  /** The body parsed as JSON. */
  body: unknown;
  /** The body as it came, for a failure's message. */
  text: string;
}

/**
 * One HTTP exchange with a processor's JSON API: no answer in time, a broken connection or a body that is
 * not JSON all mean the processor is unavailable; what the answer says is the caller's to read.
 */
export async function exchangeJson(
  processor: string,
  path: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<JsonAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : String((error as { cause?: unknown })?.cause ?? error);
    throw new PaymentProviderError('unavailable', `${processor} ${path} failed: ${reason}`);
  }
  try {
    return { status: response.status, ok: response.ok, body: JSON.parse(text), text };
  } catch {
    throw new PaymentProviderError(
      'unavailable',
      `${processor} ${path} answered HTTP ${response.status} with non-JSON: ${text.slice(0, 120)}`,
    );
  }
}

/** A payment read is tried again after these pauses when the processor was unavailable; no other failure is. */
const READ_RETRY_DELAYS_MS = [200, 600];

/** Reads once, and again after a pause while the processor is unavailable; any other failure at once. */
export async function readWithRetries<T>(
  read: () => Promise<T>,
  asProviderError: (error: unknown) => PaymentProviderError,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      const failure = asProviderError(error);
      const delayMs = READ_RETRY_DELAYS_MS[attempt];
      if (failure.kind !== 'unavailable' || delayMs === undefined) throw failure;
      await sleep(delayMs);
    }
  }
}

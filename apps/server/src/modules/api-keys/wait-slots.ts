/** Long waits for codes and event streams one API key may hold open at once, over MCP and the JSON API. */
export const WAITS_PER_KEY = 20;

/**
 * Counts what each key holds open (MCP's wait_for_code, the JSON API's long-polls and event streams), so
 * one bot cannot hold every connection of the server.
 */
export class WaitSlots {
  readonly #open = new Map<number, number>();
  constructor(readonly perKey: number) {}
  take(keyId: number): boolean {
    const open = this.#open.get(keyId) ?? 0;
    if (open >= this.perKey) return false;
    this.#open.set(keyId, open + 1);
    return true;
  }
  give(keyId: number): void {
    const open = (this.#open.get(keyId) ?? 1) - 1;
    if (open <= 0) this.#open.delete(keyId);
    else this.#open.set(keyId, open);
  }
}

import type { RefusalToken } from '@simcode/sms-activate-protocol';

/** Ways the simulator can break an answer, for testing how the product copes with a failing provider. */
export type BrokenMode =
  /** HTTP 502 with an nginx error page. */
  | 'html502'
  /** HTTP 200 with a truncated JSON body. */
  | 'garbage'
  /** No answer at all: the client's timeout has to fire. */
  | 'hang'
  /** The connection is dropped without an answer. */
  | 'reset';

export interface Fault {
  /** handler_api.php action the fault applies to; every action when absent. */
  action?: string;
  /** Answer with this protocol token (rendered in the current style). */
  token?: RefusalToken;
  payload?: string;
  broken?: BrokenMode;
  /** Wait this long (real time) before answering. */
  delayMs?: number;
  /** Requests left to affect; null until cleared. */
  remaining: number | null;
}

/** Faults apply in the order they were added, each to as many matching requests as it was told. */
export class FaultQueue {
  #faults: Fault[] = [];

  add(fault: Fault): void {
    this.#faults.push(fault);
  }

  clear(): void {
    this.#faults = [];
  }

  list(): readonly Fault[] {
    return this.#faults;
  }

  take(action: string): Fault | undefined {
    const fault = this.#faults.find(
      (candidate) => candidate.action === undefined || candidate.action === action,
    );
    if (fault?.remaining != null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.#faults = this.#faults.filter((candidate) => candidate !== fault);
    }
    return fault;
  }
}

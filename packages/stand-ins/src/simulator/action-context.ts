import type { Params, ProtocolReply, ResponseStyle } from '@simcode/sms-activate-protocol';
import type { SimulatorEngine } from './engine';

/** The most items one page of a list answers, whatever size the caller asks for. */
export const MAX_PAGE_SIZE = 100;

/** `size` items from `start`, clamped to the list and to MAX_PAGE_SIZE. */
export function page<T>(items: readonly T[], start: number, size: number): T[] {
  return items.slice(Math.max(0, start), Math.max(0, start) + Math.min(Math.max(size, 1), MAX_PAGE_SIZE));
}

/** What every handler_api.php action gets: the engine, the caller's dialect and parameters, and the time. */
export interface ActionContext {
  engine: SimulatorEngine;
  /** The shape of what the action answers, and which actions there are. */
  style: ResponseStyle;
  /** How refusals are told. */
  errorStyle: ResponseStyle;
  params: Params;
  nowMs: number;
}

export type Handler = (context: ActionContext) => ProtocolReply;

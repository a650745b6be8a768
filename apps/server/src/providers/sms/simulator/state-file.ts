import { mkdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SmsLogger } from '../logger';
import type { SimState } from './engine';

/** Changes are written at most this often: a burst of purchases costs one write. */
const WRITE_DELAY_MS = 500;

function looksLikeState(value: unknown): value is SimState {
  const state = value as Partial<SimState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.version === 1 &&
    typeof state.nextActivationId === 'number' &&
    typeof state.nextRentId === 'number' &&
    typeof state.activations === 'object' &&
    typeof state.rents === 'object' &&
    typeof state.sold === 'object'
  );
}

/** The saved state, or undefined when there is none yet or it cannot be read (then the simulator starts afresh). */
export function loadState(file: string, logger?: SmsLogger): SimState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (looksLikeState(value)) return value;
  } catch {
    // Reported below, like a file of the wrong shape.
  }
  logger?.warn({ file }, 'simulator state file is unreadable; starting with an empty state');
  return undefined;
}

/**
 * Saves the state a little after it changes, through a temporary file and a rename, so a crash mid-write
 * leaves the previous state intact.
 */
export class StateWriter {
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SimState,
    private readonly logger?: SmsLogger,
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
  }

  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, WRITE_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes now if a write is pending, and waits for every write to finish. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      await this.#write();
    }
    await this.#writing;
  }

  #write(): Promise<void> {
    // Writes are chained so two renames never race; each writes the state as it is when its turn comes.
    this.#writing = this.#writing.then(async () => {
      const temporary = `${this.file}.${process.pid}.tmp`;
      try {
        await mkdir(path.dirname(this.file), { recursive: true });
        await writeFile(temporary, JSON.stringify(this.snapshot()));
        await rename(temporary, this.file);
      } catch (error) {
        this.logger?.error({ err: error, file: this.file }, 'simulator state could not be saved');
      }
    });
    return this.#writing;
  }
}

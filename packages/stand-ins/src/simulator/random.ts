/**
 * Deterministic randomness: for a given seed the simulator's catalog, numbers and SMS schedule repeat,
 * which makes demos reproducible and lets tests pin behaviour down.
 */

/** FNV-1a over the parts, then a murmur-style finaliser: a stable value in [0, 1) for any key. */
export function hashUnit(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0001')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

/** mulberry32: small, fast and good enough for simulated phone numbers and delays. */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = Math.floor(hashUnit('seed', seed) * 2 ** 32);
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 2 ** 32;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  digits(count: number): string {
    let text = '';
    for (let index = 0; index < count; index++) text += String(this.int(0, 9));
    return text;
  }
}

import { createHash } from 'node:crypto';

/**
 * A small seeded PRNG (sfc32). Each draw site derives its own generator from the seed and a key naming what is
 * drawn ("outcome" + our lead id, "post" + lead id + attempt, ...), so an answer depends only on the seed and on
 * the request it answers, not on how concurrent requests interleave: runs with the same seed are reproducible.
 */
export class SeededRandom {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  private constructor(state: Buffer) {
    this.#a = state.readUInt32LE(0);
    this.#b = state.readUInt32LE(4);
    this.#c = state.readUInt32LE(8);
    this.#d = state.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** The generator for one draw site. */
  static derive(seed: number, ...keys: readonly string[]): SeededRandom {
    return new SeededRandom(digest(seed, keys));
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  }

  /** True with probability `p`: always at 1, never at 0. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer drawn uniformly from [min, max]. */
  intBetween(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly [T, ...T[]]): T {
    return items[Math.floor(this.next() * items.length)] ?? items[0];
  }
}

/** A URL-safe id that depends only on the seed and the keys (22 characters, 132 bits). */
export function derivedId(seed: number, ...keys: readonly string[]): string {
  return digest(seed, keys).toString('base64url').slice(0, 22);
}

function digest(seed: number, keys: readonly string[]): Buffer {
  return createHash('sha256')
    .update(JSON.stringify([seed, ...keys]))
    .digest();
}

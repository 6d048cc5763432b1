import { describe, expect, it } from 'vitest';
import { SeededRandom, derivedId } from './seeded-random.js';

const draws = (random: SeededRandom, n: number) => Array.from({ length: n }, () => random.next());

describe('SeededRandom', () => {
  it('gives the same sequence for the same seed and key', () => {
    expect(draws(SeededRandom.derive(7, 'outcome', 'lead-a'), 5)).toEqual(
      draws(SeededRandom.derive(7, 'outcome', 'lead-a'), 5),
    );
  });

  it('gives different sequences for another seed or another key', () => {
    const base = draws(SeededRandom.derive(7, 'outcome', 'lead-a'), 5);
    expect(draws(SeededRandom.derive(8, 'outcome', 'lead-a'), 5)).not.toEqual(base);
    expect(draws(SeededRandom.derive(7, 'outcome', 'lead-b'), 5)).not.toEqual(base);
  });

  it('draws floats in [0, 1) spread over the interval', () => {
    const values = draws(SeededRandom.derive(1, 'spread'), 10_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });

  it('chance is always true at 1 and never at 0', () => {
    const random = SeededRandom.derive(3, 'chance');
    for (let i = 0; i < 1000; i++) {
      expect(random.chance(1)).toBe(true);
      expect(random.chance(0)).toBe(false);
    }
  });

  it('intBetween stays within bounds and reaches both ends', () => {
    const random = SeededRandom.derive(4, 'ints');
    const seen = new Set(Array.from({ length: 2000 }, () => random.intBetween(10, 14)));
    expect([...seen].sort()).toEqual([10, 11, 12, 13, 14]);
    expect(random.intBetween(5, 5)).toBe(5);
  });
});

describe('derivedId', () => {
  it('is URL-safe, stable for the same inputs and distinct for others', () => {
    const id = derivedId(1, 'network-lead-id', 'lead-a');
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(derivedId(1, 'network-lead-id', 'lead-a')).toBe(id);
    expect(derivedId(1, 'network-lead-id', 'lead-b')).not.toBe(id);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATE_RATE_CAPS, withinRateCap } from './rate-caps.js';

describe('state rate caps', () => {
  it('are the table docs/state-rate-caps.md shows, state by state', () => {
    const doc = readFileSync(new URL('../../../docs/state-rate-caps.md', import.meta.url), 'utf8');
    const rows = doc
      .split('\n')
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .filter((cells) => /^[A-Z]{2}$/.test(cells[1] ?? ''))
      .map(([, state, apr, law]) => [state, { maxApr: Number(apr), law }]);
    expect(Object.fromEntries(rows)).toEqual(STATE_RATE_CAPS);
  });

  it('let a lender within the cap through, and one above it not', () => {
    expect(withinRateCap('AR', 17)).toBe(true);
    expect(withinRateCap('AR', 17.5)).toBe(false);
    expect(withinRateCap('CA', 160)).toBe(true);
    expect(withinRateCap(undefined, 160)).toBe(true);
  });
});

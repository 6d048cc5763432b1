import { describe, expect, it } from 'vitest';
import { until } from './until.js';

describe('until', () => {
  it('resolves to the first answer that is neither undefined nor false, asking again meanwhile', async () => {
    const answers = [undefined, false, 0, 1];
    let asked = 0;
    await expect(until('a count', () => answers[asked++], { intervalMs: 1 })).resolves.toBe(0);
    expect(asked).toBe(3);
  });

  it('treats a throwing probe as not yet, and names what it waited for and the last error when time runs out', async () => {
    await expect(
      until(
        'the stack to answer',
        () => {
          throw new Error('ECONNREFUSED');
        },
        { timeoutMs: 20, intervalMs: 5 },
      ),
    ).rejects.toThrow(/waiting for the stack to answer \(last error: ECONNREFUSED\)/);
  });
});

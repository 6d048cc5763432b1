import { describe, expect, it } from 'vitest';
import { workersText } from './workers-text';

const seen = '2026-11-27T11:33:10.000Z';

describe('workersText', () => {
  it('says a stopped worker is gone and when it was last seen, not that it runs its old version', () => {
    const text = workersText([
      { worker: 'w-running', version: 3, at: seen, lastSeenAt: seen, gone: false },
      { worker: 'w-stopped', version: 1, at: seen, lastSeenAt: seen, gone: true },
    ]);
    expect(text).toBe(
      `workers: w-running on version 3 · gone: w-stopped (last seen ${new Date(seen).toLocaleString()}, on version 1)`,
    );
  });

  it('says when no worker runs the buyers', () => {
    expect(workersText([])).toBe('workers: none running');
  });
});

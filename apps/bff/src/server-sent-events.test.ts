import { describe, expect, it } from 'vitest';
import { frameEvent } from './server-sent-events.js';

describe('frameEvent', () => {
  it('writes the id, event and data lines, then the blank line that ends the event', () => {
    expect(frameEvent({ id: 3, event: 'outcome', data: '{"outcome":"sold","seq":3}' })).toBe(
      'id: 3\nevent: outcome\ndata: {"outcome":"sold","seq":3}\n\n',
    );
  });

  it('leaves out the id and event lines it is not given', () => {
    expect(frameEvent({ data: '{}' })).toBe('data: {}\n\n');
  });
});

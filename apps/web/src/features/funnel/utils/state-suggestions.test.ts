import { describe, expect, it } from 'vitest';
import { stateSuggestions } from './state-suggestions';

describe('stateSuggestions', () => {
  it('matches names by their start and codes exactly, in any case', () => {
    expect(stateSuggestions('new')).toEqual(['New Hampshire', 'New Jersey', 'New Mexico', 'New York']);
    expect(stateSuggestions('ca')).toEqual(['California']);
    expect(stateSuggestions(' ')).toEqual([]);
  });
});

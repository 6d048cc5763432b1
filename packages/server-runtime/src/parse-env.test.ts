import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseEnv } from './parse-env.js';

const Schema = z.object({
  PORT: z.coerce.number().default(3000),
  SECRET: z.string().min(8),
  URL: z.string().url().optional(),
});

describe('parseEnv', () => {
  it('applies defaults and treats empty variables as unset', () => {
    expect(parseEnv(Schema, { SECRET: 'abcdefgh', PORT: '', URL: '' })).toEqual({
      PORT: 3000,
      SECRET: 'abcdefgh',
    });
  });

  it('lists every bad key at once', () => {
    expect(() => parseEnv(Schema, { PORT: 'x', URL: 'nope' })).toThrow(/PORT[\s\S]*SECRET[\s\S]*URL/);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('parseEnv: settings read from files (NAME_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'parse-env-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secretFile = (text: string) => {
    const file = path.join(dir, `secret-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, text);
    return file;
  };

  it('reads a listed setting from its file, without the trailing newline', () => {
    const env = parseEnv(Schema, { SECRET_FILE: secretFile('from-a-file\n') }, { fromFiles: ['SECRET'] });
    expect(env.SECRET).toBe('from-a-file');
  });

  it('leaves a setting that is not listed alone: its _FILE variable means nothing', () => {
    expect(() => parseEnv(Schema, { SECRET_FILE: secretFile('from-a-file') })).toThrow(/SECRET/);
  });

  it('refuses both forms at once, and a file it cannot read, with the other problems', () => {
    expect(() =>
      parseEnv(Schema, { SECRET: 'abcdefgh', SECRET_FILE: secretFile('x') }, { fromFiles: ['SECRET'] }),
    ).toThrow(/SECRET: set SECRET or SECRET_FILE, not both/);
    expect(() =>
      parseEnv(Schema, { SECRET_FILE: path.join(dir, 'missing'), PORT: 'x' }, { fromFiles: ['SECRET'] }),
    ).toThrow(/SECRET_FILE: cannot read .*missing \(ENOENT\)[\s\S]*PORT/);
  });
});

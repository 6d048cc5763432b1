import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { migrate, openDatabase, type Database } from './database.js';
import { doNotCallStatus, loadDoNotCallFile } from './do-not-call.js';

describe('the Do Not Call registry', () => {
  const schema = testSchema('dnc');
  const dir = mkdtempSync(path.join(tmpdir(), 'dnc-'));
  let db: Kysely<Database>;
  const file = (name: string, lines: string[]) => {
    const at = path.join(dir, name);
    writeFileSync(at, `${lines.join('\r\n')}\r\n`);
    return at;
  };

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('says nothing before a registry is loaded', async () => {
    expect(await doNotCallStatus(db, '2125550123')).toEqual({ listed: false, loadedAt: undefined });
  });

  it("loads the registry's full-list files, each replacing only the area codes it holds", async () => {
    const first = new Date('2026-11-01T06:00:00Z');
    const loaded = await loadDoNotCallFile(
      db,
      file('full-212-646.txt', ['212,5550123', '212,5550199', '646,2001000', '', '212,5550123']),
      () => first,
    );
    expect(loaded).toEqual({ areaCodes: 2, numbers: 3, loadedAt: first });
    expect(await doNotCallStatus(db, '2125550123')).toEqual({ listed: true, loadedAt: first });
    expect((await doNotCallStatus(db, '2125550124')).listed).toBe(false);

    // A newer 212 file: 5550199 left the registry, 5550150 joined; 646 is not in this file and stays as it was.
    const second = new Date('2026-11-20T06:00:00Z');
    await loadDoNotCallFile(db, file('full-212.txt', ['2125550123', '212,5550150']), () => second);
    expect(await doNotCallStatus(db, '2125550199')).toEqual({ listed: false, loadedAt: second });
    expect((await doNotCallStatus(db, '2125550150')).listed).toBe(true);
    expect((await doNotCallStatus(db, '6462001000')).listed).toBe(true);
  });

  it('refuses a file with a line it cannot read, naming the line, and changes nothing', async () => {
    await expect(
      loadDoNotCallFile(db, file('broken.txt', ['212,5550777', 'John,212-555-0188'])),
    ).rejects.toThrow('broken.txt line 2: not a registry line');
    expect((await doNotCallStatus(db, '2125550777')).listed).toBe(false);
    expect((await doNotCallStatus(db, '2125550123')).listed).toBe(true);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runStages, selectStages } from '../stage-runner.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function logDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'stage-runner-'));
  dirs.push(dir);
  return dir;
}

/** A process's state letter from /proc (Z for one that ended and waits to be reaped), or `gone`. */
function processState(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] ?? 'gone';
  } catch {
    return 'gone';
  }
}

const sh = (script: string) => ({ command: 'sh', args: ['-c', script] });

describe("npm test's stages", () => {
  it('runs every stage after a failure, fails the ones that need it as not run, and names why', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const results = await runStages(
      [
        { name: 'lint', title: 'Lint', run: sh('echo finding; exit 3') },
        { name: 'build', title: 'Build', run: sh('echo built') },
        { name: 'browser', title: 'Browser tests', needs: ['build'], run: sh('echo browsed') },
        { name: 'after-lint', title: 'After lint', needs: ['lint'], run: sh('echo never') },
        { name: 'compose', title: 'Compose', unable: () => 'no Docker engine answers' },
      ],
      { cwd: process.cwd(), env: process.env, logDir: logDir() },
    );
    const byName = Object.fromEntries(results.map((r) => [r.name, { ok: r.ok, why: r.why }]));
    expect(byName).toEqual({
      lint: { ok: false, why: 'exited 3' },
      build: { ok: true, why: '' },
      browser: { ok: true, why: '' },
      'after-lint': { ok: false, why: 'not run: needs lint' },
      compose: { ok: false, why: 'cannot run: no Docker engine answers' },
    });
  });

  it('starts a stage that waits for another once that one ended, even when it failed', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const dir = logDir();
    const order = path.join(dir, 'order');
    const results = await runStages(
      [
        { name: 'browser', title: 'Browser', waitsFor: ['vitest'], run: sh(`echo browser >> ${order}`) },
        { name: 'vitest', title: 'Vitest', run: sh(`sleep 0.2; echo vitest >> ${order}; exit 1`) },
      ],
      { cwd: process.cwd(), env: process.env, logDir: dir },
    );
    expect(readFileSync(order, 'utf8')).toBe('vitest\nbrowser\n');
    expect(results.find((r) => r.name === 'browser')?.ok).toBe(true);
  });

  it('stops a stage past its time with everything it started, fails it as timed out, and runs the rest', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const dir = logDir();
    const pidFile = path.join(dir, 'sleeper.pid');
    const results = await runStages(
      [
        {
          name: 'browser',
          title: 'Browser',
          timeoutSeconds: 1,
          run: sh(`sleep 60 & echo $! > ${pidFile}; wait`),
        },
        { name: 'lint', title: 'Lint', run: sh('sleep 0.1') },
      ],
      { cwd: process.cwd(), env: process.env, logDir: dir },
    );
    const byName = Object.fromEntries(results.map((r) => [r.name, { ok: r.ok, why: r.why }]));
    expect(byName).toEqual({
      browser: { ok: false, why: 'timed out after 1 s' },
      lint: { ok: true, why: '' },
    });
    // The stage's own child is gone with it (once whoever inherited it has reaped it).
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    await vi.waitFor(() => expect(processState(sleeper)).toMatch(/^(gone|Z)$/), { timeout: 5_000 });
    expect(readFileSync(path.join(dir, 'browser.log'), 'utf8')).toContain('still running after 1 s: stopped');
  });

  it("prints each stage's whole output and its duration when it ends", async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
    await runStages([{ name: 'knip', title: 'Knip', run: sh('echo first line; echo second line') }], {
      cwd: process.cwd(),
      env: process.env,
      logDir: logDir(),
    });
    expect(printed.join('\n')).toContain('first line\nsecond line');
    // Its time, and its processor time where GNU time is there to count it.
    expect(printed.some((line) => /^▶ Knip: passed in \d+ s( \(processor \d+ s\))?$/.test(line))).toBe(true);
  });

  it('runs the stages asked for with the stages they need, and refuses an unknown name', () => {
    const stages = [
      { name: 'build', title: 'Build' },
      { name: 'bench', title: 'Bench', needs: ['build'] },
      { name: 'faults', title: 'Faults', needs: ['bench'] },
      { name: 'lint', title: 'Lint' },
    ];
    expect(selectStages(stages, ['faults']).map((s) => s.name)).toEqual(['build', 'bench', 'faults']);
    expect(selectStages(stages, []).map((s) => s.name)).toEqual(['build', 'bench', 'faults', 'lint']);
    expect(() => selectStages(stages, ['vitset'])).toThrow(/No stage named vitset; the stages: build, bench/);
  });
});

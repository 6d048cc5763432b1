import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorsOutsideTests, vitestFailures } from '../vitest-failures.mjs';

const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitest-failures-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('what a failed vitest run is said to have failed on', () => {
  it('names a failed test, and a file that failed with no failing test by its message', () => {
    const dir = scratch();
    const report = path.join(dir, 'vitest.json');
    writeFileSync(
      report,
      JSON.stringify({
        testResults: [
          {
            name: path.join(dir, 'a.test.ts'),
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'keeps' },
              {
                status: 'failed',
                fullName: 'store > loses nothing',
                failureMessages: ['\nAssertionError: expected 1 to be 0\n    at a.test.ts:4:9'],
              },
            ],
          },
          {
            name: path.join(dir, 'b.int.test.ts'),
            status: 'failed',
            message: '\nHook timed out in 10000ms.\nIf this is a long-running hook, pass a timeout',
            assertionResults: [{ status: 'skipped', fullName: 'never ran' }],
          },
          { name: path.join(dir, 'c.test.ts'), status: 'passed', assertionResults: [] },
        ],
      }),
    );
    expect(vitestFailures(report, dir)).toEqual([
      'a.test.ts > store > loses nothing: AssertionError: expected 1 to be 0',
      'b.int.test.ts (the file failed: Hook timed out in 10000ms.)',
    ]);
  });

  it('reads the errors outside any test from the output, colours and all', () => {
    const dir = scratch();
    const log = path.join(dir, 'vitest.log');
    writeFileSync(
      log,
      [
        ' \u001b[32m✓\u001b[39m test/a.test.ts (3 tests)',
        '\u001b[31m⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯\u001b[39m',
        'Vitest caught 1 unhandled error during the test run.',
        '⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯',
        '\u001b[31mError\u001b[39m: connect ECONNREFUSED 127.0.0.1:6379',
        ' ❯ TCPConnectWrap.afterConnect node:net:1637:16',
      ].join('\n'),
    );
    expect(errorsOutsideTests(log)).toEqual(['unhandled: Error: connect ECONNREFUSED 127.0.0.1:6379']);
    writeFileSync(log, ' ✓ test/a.test.ts (3 tests)\n');
    expect(errorsOutsideTests(log)).toEqual([]);
  });
});

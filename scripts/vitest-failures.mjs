// The failed tests of a vitest JSON report, each as `<file> > <full name>: <first line of its failure>` (a file
// that failed outside its tests as `<file> (the file failed: <message>)`): npm test's closing list (test.mjs),
// and .ci/run's for its fallback run: `node scripts/vitest-failures.mjs <report> <heading>` prints the heading and
// the failures, indented, or nothing when none failed or the report is missing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export function vitestFailures(reportFile, root = process.cwd()) {
  if (!existsSync(reportFile)) return [];
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  return (report.testResults ?? []).flatMap((file) => {
    const name = path.relative(root, file.name);
    const tests = (file.assertionResults ?? [])
      .filter((test) => test.status === 'failed')
      .map((test) => `${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file can fail with no failing test: a hook before its tests, or its own import, threw (its tests are then
    // reported skipped). Its message is all there is to say why.
    if (tests.length > 0 || file.status !== 'failed') return tests;
    return [`${name} (the file failed: ${firstLine(file.message)})`];
  });
}

/** A failure's first line that says something, at most 300 characters: what CI's closing list keeps of it. */
export function firstLine(message) {
  const line =
    String(message ?? 'no message')
      .split('\n')
      .find((text) => text.trim() !== '') ?? 'no message';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * The errors vitest reported outside any test (its "Unhandled Errors" section, which its JSON report leaves out),
 * each as its first line, read from the run's output: what made a run fail in which every test passed.
 */
export function errorsOutsideTests(logFile) {
  if (!existsSync(logFile)) return [];
  // eslint-disable-next-line no-control-regex -- the colours of a terminal's output
  const text = readFileSync(logFile, 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
  const section = text.split(/⎯+ Unhandled Errors? ⎯+/)[1];
  if (section === undefined) return [];
  return section
    .split('\n')
    .filter((line) => /^\s*(\w*Error|Unhandled \w+)\b/.test(line))
    .slice(0, 5)
    .map((line) => `unhandled: ${line.trim()}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [reportFile, heading] = process.argv.slice(2);
  const failures = vitestFailures(reportFile);
  if (failures.length > 0) console.log([heading, ...failures.map((line) => `  ${line}`)].join('\n'));
}

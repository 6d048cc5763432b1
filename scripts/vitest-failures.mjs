// The failed tests of a vitest JSON report, each as `<file> > <full name>`: npm test's closing list (test.mjs),
// and .ci/run's for its fallback run: `node scripts/vitest-failures.mjs <report> <heading>` prints the heading and
// the failures, indented, or nothing when none failed or the report is missing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export function vitestFailures(reportFile, root = process.cwd()) {
  if (!existsSync(reportFile)) return [];
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  return (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === 'failed')
      .map((test) => `${path.relative(root, file.name)} > ${test.fullName}`),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [reportFile, heading] = process.argv.slice(2);
  const failures = vitestFailures(reportFile);
  if (failures.length > 0) console.log([heading, ...failures.map((line) => `  ${line}`)].join('\n'));
}

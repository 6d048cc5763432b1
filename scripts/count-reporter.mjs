// A node:test reporter that writes `{ passed, failed, failures }` (leaf tests only; `failures` names each failed
// test with its file and the first line of why it failed) as JSON, for test.mjs's summary.
import path from 'node:path';
import { firstLine } from './vitest-failures.mjs';

export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.type === 'test:pass' && !event.data.skip && !event.data.todo) passed++;
    if (event.type === 'test:fail') {
      failed++;
      const file = path.relative(process.cwd(), event.data.file ?? '?');
      failures.push(`${file} > ${event.data.name}: ${failureLine(event.data.details?.error)}`);
    }
  }
  yield JSON.stringify({ passed, failed, failures });
}

/** node:test wraps what the test threw (`cause`) in its own error; the thrown one says why. */
function failureLine(error) {
  const thrown = error?.cause ?? error;
  return firstLine(thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : thrown);
}

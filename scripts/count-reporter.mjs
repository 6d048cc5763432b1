// A node:test reporter that writes `{ passed, failed, failures }` (leaf tests only; `failures` names each failed
// test with its file) as JSON, for test.mjs's summary.
import path from 'node:path';

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
      failures.push(`${path.relative(process.cwd(), event.data.file ?? '?')} > ${event.data.name}`);
    }
  }
  yield JSON.stringify({ passed, failed, failures });
}

// A node:test reporter that writes `{ passed, failed }` (leaf tests only) as JSON, for test.mjs's summary.
export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.type === 'test:pass' && !event.data.skip && !event.data.todo) passed++;
    if (event.type === 'test:fail') failed++;
  }
  yield JSON.stringify({ passed, failed });
}

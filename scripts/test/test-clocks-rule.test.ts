import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { noElapsedTimeAssertions } from '../../eslint-rules/test-clocks.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const elapsed = [{ messageId: 'elapsed' }];

// Timing never goes into the tests (docs/adr/0028): the rule finds an elapsed time compared with a threshold.
tester.run('no-elapsed-time-assertions', noElapsedTimeAssertions, {
  valid: [
    // Waiting for a condition with a deadline is no assertion.
    'const deadline = Date.now() + 10_000; while (Date.now() < deadline) poll();',
    // Two instants in order: a record stamped between the readings taken around the request.
    'const before = Date.now(); send(); expect(Date.parse(row.at)).toBeGreaterThanOrEqual(before);',
    // A configured delay, not a measured one.
    'expect(answer.delayMs).toBeLessThanOrEqual(20);',
    'expect(ttl).toBeLessThanOrEqual(2 * DAY_MS);',
  ],
  invalid: [
    {
      code: 'const started = performance.now(); run(); expect(performance.now() - started).toBeLessThan(5);',
      errors: elapsed,
    },
    {
      code: 'const started = Date.now(); run(); const elapsed = Date.now() - started; expect(elapsed).toBeLessThan(3500);',
      errors: elapsed,
    },
    {
      code: 'const t0 = process.hrtime.bigint(); run(); const took = process.hrtime.bigint() - t0; expect(took).not.toBeGreaterThan(9n);',
      errors: elapsed,
    },
    // Through a property of a helper's result.
    {
      code: 'async function f(c) { const s = performance.now(); await c; return { kind: 1, ms: performance.now() - s }; } expect(w.ms).toBeLessThan(1300);',
      errors: elapsed,
    },
    // node:test's assert.
    {
      code: 'const shownAt = Date.now(); const waited = shownAt - Date.parse(at); assert.ok(waited <= 1500);',
      errors: elapsed,
    },
    {
      code: 'const submittedAt = Date.now(); expect(Date.parse(o.at)).toBeLessThan(submittedAt + deadlineMs);',
      errors: elapsed,
    },
    { code: 'expect(perQueryMs).toBeLessThan(0.5);', errors: elapsed },
  ],
});

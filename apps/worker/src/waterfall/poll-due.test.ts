import { expect, it } from 'vitest';
import { pollLatenessSeconds } from './poll-due.js';

it('measures from the due time stored with the job to the start of the run', () => {
  expect(pollLatenessSeconds({ leadId: 'x', pollDue: { at: 10_000, attempt: 0 } }, 0, 10_250)).toBe(0.25);
  expect(pollLatenessSeconds({ pollDue: { at: 10_000, attempt: 2 } }, 2, 40_000)).toBe(30);
});

it('counts a poll that starts before its due time as on time', () => {
  expect(pollLatenessSeconds({ pollDue: { at: 10_000, attempt: 0 } }, 0, 9_000)).toBe(0);
});

it('measures nothing for a first run, a retry after a failure, or data without a due time', () => {
  expect(pollLatenessSeconds({ leadId: 'x' }, 0, 10_000)).toBeUndefined();
  expect(pollLatenessSeconds({ pollDue: { at: 10_000, attempt: 0 } }, 1, 12_000)).toBeUndefined();
  expect(pollLatenessSeconds({ pollDue: { at: 'soon', attempt: 0 } }, 0, 12_000)).toBeUndefined();
  expect(pollLatenessSeconds(undefined, 0, 12_000)).toBeUndefined();
  expect(pollLatenessSeconds(null, 0, 12_000)).toBeUndefined();
});

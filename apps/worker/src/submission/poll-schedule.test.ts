import { afterEach, expect, it, vi } from 'vitest';
import { PollSchedule } from './poll-schedule.js';

afterEach(() => {
  vi.useRealTimers();
});

it('tells when a poll was due once, and forgets it', () => {
  const polls = new PollSchedule();
  polls.expect('lead-a', 1_000);
  expect(polls.take('lead-a')).toBe(1_000);
  expect(polls.take('lead-a')).toBeUndefined();
  expect(polls.take('lead-b')).toBeUndefined();
  polls.close();
});

it('starts its sweep when built, not when imported, and stops it when closed', () => {
  vi.useFakeTimers();
  expect(vi.getTimerCount()).toBe(0);
  const polls = new PollSchedule();
  expect(vi.getTimerCount()).toBe(1);
  polls.close();
  expect(vi.getTimerCount()).toBe(0);
});

it('drops everything when more than 100,000 polls wait', () => {
  vi.useFakeTimers();
  const polls = new PollSchedule();
  for (let i = 0; i <= 100_000; i++) polls.expect(`lead-${i}`, i);
  vi.advanceTimersByTime(60_000);
  expect(polls.take('lead-7')).toBeUndefined();
  polls.close();
});

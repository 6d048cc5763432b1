import { describe, expect, it } from 'vitest';
import { dobYearOptions } from '@funnel/contracts/options';
import { reconcileDay } from './dob-parts';

describe('reconcileDay', () => {
  it('keeps a day the month and year have', () => {
    expect(reconcileDay({ month: '2', day: '29', year: '2004' })).toEqual({ day: '29' });
    expect(reconcileDay({ month: '2', day: '29', year: '' })).toEqual({ day: '29' });
    expect(reconcileDay({ month: '5', day: '31', year: '1990' })).toEqual({ day: '31' });
  });

  it('clears Feb 29 once a common year is chosen, and says the day is required', () => {
    expect(reconcileDay({ month: '2', day: '29', year: '2003' })).toEqual({
      day: '',
      error: 'Day is required!',
    });
    expect(reconcileDay({ month: '2', day: '29', year: '1900' })).toEqual({
      day: '',
      error: 'Day is required!',
    });
  });

  it('clears a 31st once a 30-day month is chosen', () => {
    expect(reconcileDay({ month: '4', day: '31', year: '' })).toEqual({ day: '', error: 'Day is required!' });
  });

  it('drops the day without a message when the month is cleared, and leaves no day alone', () => {
    expect(reconcileDay({ month: '', day: '12', year: '' })).toEqual({ day: '' });
    expect(reconcileDay({ month: '2', day: '', year: '2003' })).toEqual({ day: '' });
  });
});

describe('the year list (contracts dobYearOptions)', () => {
  it('starts at the latest year that can make someone 18 today and counts down 100 years', () => {
    const years = dobYearOptions('2026-11-25').map((option) => option.value);
    expect(years[0]).toBe(2008);
    expect(years).toHaveLength(100);
    expect(years.at(-1)).toBe(1909);
  });
});

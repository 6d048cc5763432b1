import { describe, expect, it } from 'vitest';
import { defaultFilters, filtersFromSearch, filtersToSearch, reportPath } from './report-filters';

describe('report filters', () => {
  it('default to the last 30 days, today included, in New York', () => {
    // 03:00 UTC on 1 Dec is still 30 Nov in New York.
    expect(defaultFilters(new Date('2026-12-01T03:00:00Z'))).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      affiliate: '',
      source: '',
    });
  });

  it('read the address, ignoring a source that does not exist', () => {
    const now = new Date('2026-11-15T12:00:00Z');
    expect(filtersFromSearch(new URLSearchParams('from=2026-10-01&to=2026-10-02&source=tv'), now)).toEqual({
      from: '2026-10-01',
      to: '2026-10-02',
      affiliate: '',
      source: '',
    });
    expect(filtersFromSearch(new URLSearchParams('affiliate=aff-1&source=partner'), now)).toMatchObject({
      from: '2026-10-17',
      to: '2026-11-15',
      affiliate: 'aff-1',
      source: 'partner',
    });
  });

  it('leave empty filters out of the request, and ask for CSV when told', () => {
    const filters = { from: '2026-10-01', to: '2026-10-31', affiliate: ' ', source: '' as const };
    expect(filtersToSearch(filters).toString()).toBe('from=2026-10-01&to=2026-10-31');
    expect(reportPath('sales', { ...filters, affiliate: 'a b&c', source: 'funnel' }, 'csv')).toBe(
      '/admin/reports/sales?from=2026-10-01&to=2026-10-31&affiliate=a+b%26c&source=funnel&format=csv',
    );
  });
});

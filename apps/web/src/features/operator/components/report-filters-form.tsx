import { useState } from 'react';
import { LEAD_SOURCES, LEAD_SOURCE_LABELS, REPORT_MAX_DAYS } from '@funnel/contracts/reports';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import type { ReportFilters } from '../utils/report-filters';
import { DateRangeFields, FiltersForm, useFiltersDraft } from './filters-form';

const SOURCE_OPTIONS = LEAD_SOURCES.map((value) => ({ value, label: LEAD_SOURCE_LABELS[value] }));

function rangeError(from: string, to: string): string | undefined {
  if (!from || !to) return 'Enter both dates.';
  if (from > to) return "'To' must not be before 'From'.";
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= REPORT_MAX_DAYS) {
    return `A report covers at most ${REPORT_MAX_DAYS} days.`;
  }
  return undefined;
}

/** The reports' filters: a day range of at most REPORT_MAX_DAYS, an affiliate, a source. */
export function ReportFiltersForm({
  filters,
  onApply,
}: {
  filters: ReportFilters;
  onApply: (filters: ReportFilters) => void;
}) {
  const { draft, set } = useFiltersDraft(filters);
  const [error, setError] = useState<string | undefined>();

  function apply() {
    const problem = rangeError(draft.from, draft.to);
    setError(problem);
    if (!problem) onApply({ ...draft, affiliate: draft.affiliate.trim() });
  }

  return (
    <FiltersForm label="Report filters" onApply={apply}>
      <DateRangeFields
        idPrefix="report"
        from={draft.from}
        to={draft.to}
        onFrom={set('from')}
        onTo={set('to')}
        error={error}
      />
      <TextField
        id="report-affiliate"
        label="Affiliate"
        placeholder="All affiliates"
        value={draft.affiliate}
        onValueChange={set('affiliate')}
      />
      <SelectField
        id="report-source"
        label="Source"
        options={SOURCE_OPTIONS}
        placeholder="All sources"
        value={draft.source}
        onValueChange={set('source')}
      />
    </FiltersForm>
  );
}

import { useState, type FormEvent } from 'react';
import { REPORT_MAX_DAYS } from '@funnel/contracts/reports';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import type { ReportFilters } from '../utils/report-filters';
import styles from './operator.module.css';

const SOURCE_OPTIONS = [
  { value: 'funnel', label: 'Funnel (borrowers)' },
  { value: 'partner', label: 'Partner API' },
] as const;

function rangeError(from: string, to: string): string | undefined {
  if (!from || !to) return 'Enter both dates.';
  if (from > to) return "'To' must not be before 'From'.";
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= REPORT_MAX_DAYS) {
    return `A report covers at most ${REPORT_MAX_DAYS} days.`;
  }
  return undefined;
}

/** The filters, applied together on submit so typing an affiliate does not fetch a report per key. */
export function ReportFiltersForm({
  filters,
  onApply,
}: {
  filters: ReportFilters;
  onApply: (filters: ReportFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const [error, setError] = useState<string | undefined>();
  const set = <K extends keyof ReportFilters>(key: K) => {
    return (value: string) => setDraft((current) => ({ ...current, [key]: value }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = rangeError(draft.from, draft.to);
    setError(problem);
    if (!problem) onApply({ ...draft, affiliate: draft.affiliate.trim() });
  }

  return (
    <form className={styles.filters} onSubmit={submit} noValidate aria-label="Report filters">
      <TextField id="report-from" label="From" type="date" value={draft.from} onValueChange={set('from')} />
      <TextField
        id="report-to"
        label="To"
        type="date"
        value={draft.to}
        onValueChange={set('to')}
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
        onValueChange={(value) => set('source')(value as ReportFilters['source'])}
      />
      <div className={styles.apply}>
        <Button type="submit">Apply filters</Button>
      </div>
    </form>
  );
}

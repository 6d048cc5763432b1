import { useState, type ReactNode } from 'react';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import styles from './operator.module.css';

/** A draft of a page's filters, edited field by field and applied together, so typing does not fetch per key. */
export function useFiltersDraft<T extends object>(initial: T) {
  const [draft, setDraft] = useState(initial);
  const set = (key: keyof T) => (value: string) => setDraft((current) => ({ ...current, [key]: value }));
  return { draft, set };
}

/** The console's filter bar (the reports, the audit log): its fields, then "Apply filters". */
export function FiltersForm({
  label,
  onApply,
  children,
}: {
  label: string;
  onApply: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className={styles.filters}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
      noValidate
      aria-label={label}
    >
      {children}
      <div className={styles.apply}>
        <Button type="submit">Apply filters</Button>
      </div>
    </form>
  );
}

/** The From and To day fields of a filter bar; `error` is shown under To. */
export function DateRangeFields({
  idPrefix,
  labelSuffix = '',
  from,
  to,
  onFrom,
  onTo,
  error,
}: {
  idPrefix: string;
  /** e.g. ' (UTC)' where the days are UTC ones. */
  labelSuffix?: string;
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
  error?: string;
}) {
  return (
    <>
      <TextField
        id={`${idPrefix}-from`}
        label={`From${labelSuffix}`}
        type="date"
        value={from}
        onValueChange={onFrom}
      />
      <TextField
        id={`${idPrefix}-to`}
        label={`To${labelSuffix}`}
        type="date"
        value={to}
        onValueChange={onTo}
        error={error}
      />
    </>
  );
}

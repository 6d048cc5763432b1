import { useState } from 'react';
import { AUDIT_ACTIONS, type AuditEntry } from '@funnel/contracts/operators';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { PageHeading } from '@/components/ui/page-heading';
import { auditQuery, useAccounts, useAudit, type AuditFilters } from '../api/accounts';
import { auditDetailsText } from '../utils/audit-details';
import { DateRangeFields, FiltersForm, useFiltersDraft } from './filters-form';
import { ReportTable, type ReportColumn } from './report-table';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

const EMPTY: AuditFilters = { actor: '', action: '', from: '', to: '', person: '' };

const ACTIONS = Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label }));

const COLUMNS: ReportColumn<AuditEntry>[] = [
  {
    label: 'When (UTC)',
    // The day over the time: the table then leaves room for what was done and why.
    cell: (e) => (
      <>
        <span className={styles.auditDay}>{e.at.slice(0, 10)}</span> {e.at.slice(11, 19)}
      </>
    ),
    text: true,
  },
  { label: 'Who', cell: (e) => e.actor, text: true },
  // The code, as the CSV and the API name it; the filter offers each with its label.
  { label: 'Action', cell: (e) => e.action, text: true },
  { label: 'Outcome', cell: (e) => e.outcome, text: true },
  { label: 'Lead or buyer', cell: (e) => e.leadId ?? e.buyer ?? '—', text: true },
  {
    label: 'What and why',
    cell: (e) => <span className={styles.auditDetails}>{auditDetailsText(e)}</span>,
    text: true,
  },
  { label: 'Address', cell: (e) => e.ip, text: true },
];

/** `/operator/audit` (admin): every console action, newest first, filtered, and as CSV. */
export function AuditPage() {
  const [filters, setFilters] = useState(EMPTY);
  const { draft, set } = useFiltersDraft(EMPTY);
  const audit = useAudit(filters);
  const accounts = useAccounts();
  const actors = [
    ...(accounts.data?.accounts ?? []).map((a) => ({ value: a.accountId, label: a.email })),
    { value: 'api-token', label: 'Machine clients (ADMIN_API_TOKEN)' },
  ];

  return (
    <>
      <PageHeading id="operator-audit" documentTitle="Audit log">
        Audit log
      </PageHeading>
      <FiltersForm
        label="Audit filters"
        onApply={() => setFilters({ ...draft, person: draft.person.trim() })}
      >
        <SelectField
          id="audit-actor"
          label="Operator"
          options={actors}
          placeholder="Everyone"
          value={draft.actor}
          onValueChange={set('actor')}
        />
        <SelectField
          id="audit-action"
          label="Action"
          options={ACTIONS}
          placeholder="Every action"
          value={draft.action}
          onValueChange={set('action')}
        />
        <TextField
          id="audit-person"
          label="Person (email or phone)"
          hint="Found by a keyed hash, never stored."
          autoComplete="off"
          value={draft.person}
          onValueChange={set('person')}
        />
        <DateRangeFields
          idPrefix="audit"
          labelSuffix=" (UTC)"
          from={draft.from}
          to={draft.to}
          onFrom={set('from')}
          onTo={set('to')}
        />
      </FiltersForm>
      <section className={styles.section} aria-labelledby="audit-entries">
        <div className={styles.sectionHead}>
          <h2 id="audit-entries">Entries</h2>
          {/* A download is a URL, which must never name the person: a search by person has none. */}
          {filters.person ? null : (
            <a
              className={styles.download}
              href={`/api/v1/admin/audit?${auditQuery(filters, { format: 'csv', limit: '1000' })}`}
            >
              Download CSV
            </a>
          )}
        </div>
        {audit.error ? (
          <p className={styles.failed} role="alert">
            {messageOf(audit.error)}
          </p>
        ) : (
          <ReportTable
            id="audit"
            caption="Newest first; the log cannot be edited."
            columns={COLUMNS}
            oneColumn
            rows={audit.data?.entries ?? []}
            rowKey={(e) => e.auditId}
            empty={audit.isPending ? 'Loading…' : 'No entries for these filters.'}
          />
        )}
      </section>
    </>
  );
}

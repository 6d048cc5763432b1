import { useState } from 'react';
import type { AuditEntry } from '@funnel/contracts/operators';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { PageHeading } from '@/components/ui/page-heading';
import { auditQuery, useAccounts, useAudit, type AuditFilters } from '../api/accounts';
import { DateRangeFields, FiltersForm, useFiltersDraft } from './filters-form';
import { ReportTable, type ReportColumn } from './report-table';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

const EMPTY: AuditFilters = { actor: '', action: '', from: '', to: '' };

const COLUMNS: ReportColumn<AuditEntry>[] = [
  { label: 'When (UTC)', cell: (e) => e.at.replace('T', ' ').slice(0, 19), text: true },
  { label: 'Who', cell: (e) => e.actor, text: true },
  { label: 'Action', cell: (e) => e.action, text: true },
  { label: 'Outcome', cell: (e) => e.outcome, text: true },
  { label: 'Lead or buyer', cell: (e) => e.leadId ?? e.buyer ?? '—', text: true },
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
        onApply={() => setFilters({ ...draft, action: draft.action.trim() })}
      >
        <SelectField
          id="audit-actor"
          label="Operator"
          options={actors}
          placeholder="Everyone"
          value={draft.actor}
          onValueChange={set('actor')}
        />
        <TextField
          id="audit-action"
          label="Action"
          placeholder="e.g. reports.read"
          value={draft.action}
          onValueChange={set('action')}
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
          <a
            className={styles.download}
            href={`/api/v1/admin/audit?${auditQuery(filters, { format: 'csv', limit: '1000' })}`}
          >
            Download CSV
          </a>
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
            rows={audit.data?.entries ?? []}
            rowKey={(e) => e.auditId}
            empty={audit.isPending ? 'Loading…' : 'No entries for these filters.'}
          />
        )}
      </section>
    </>
  );
}

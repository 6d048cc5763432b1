import { useState, type FormEvent } from 'react';
import type { AuditEntry } from '@funnel/contracts/operators';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { auditQuery, useAccounts, useAudit, type AuditFilters } from '../api/accounts';
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
  const [draft, setDraft] = useState(EMPTY);
  const audit = useAudit(filters);
  const accounts = useAccounts();
  const actors = [
    ...(accounts.data?.accounts ?? []).map((a) => ({ value: a.accountId, label: a.email })),
    { value: 'api-token', label: 'Machine clients (ADMIN_API_TOKEN)' },
  ];
  const set = (key: keyof AuditFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    setFilters({ ...draft, action: draft.action.trim() });
  }

  return (
    <>
      <PageHeading id="operator-audit" documentTitle="Audit log">
        Audit log
      </PageHeading>
      <form className={styles.filters} onSubmit={submit} noValidate aria-label="Audit filters">
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
        <TextField
          id="audit-from"
          label="From (UTC)"
          type="date"
          value={draft.from}
          onValueChange={set('from')}
        />
        <TextField id="audit-to" label="To (UTC)" type="date" value={draft.to} onValueChange={set('to')} />
        <div className={styles.apply}>
          <Button type="submit">Apply filters</Button>
        </div>
      </form>
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

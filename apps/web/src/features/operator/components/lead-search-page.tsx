import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { LeadSearchQuery, LeadSearchResult, LeadSearchRow } from '@funnel/contracts/lead-journey';
import { OUTCOMES } from '@funnel/contracts/lead-outcome';
import { SCREENING_VERDICTS } from '@funnel/contracts/screening';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { useLeadSearch } from '../api/leads';
import { OUTCOME_WORDS, SCREENING_WORDS } from '../utils/journey-lines';
import { ReportTable, type ReportColumn } from './report-table';
import styles from './operator.module.css';
import leads from './leads.module.css';

const FIELDS = [
  ['leadId', 'Lead id', 'text'],
  ['email', 'Email', 'email'],
  ['phone', 'Phone', 'tel'],
  ['partner', 'Partner id', 'text'],
  ['idempotencyKey', 'Idempotency key', 'text'],
  ['clickId', 'Click id', 'text'],
  ['affiliate', 'Affiliate', 'text'],
  ['buyer', 'Offered to buyer', 'text'],
  ['from', 'Created from', 'date'],
  ['to', 'Created to', 'date'],
] as const;
type TextFilter = (typeof FIELDS)[number][0];
type Draft = Record<TextFilter | 'outcome' | 'screening', string>;

const EMPTY: Draft = Object.fromEntries([
  ...FIELDS.map(([name]) => [name, '']),
  ['outcome', ''],
  ['screening', ''],
]) as Draft;
const OUTCOME_OPTIONS = OUTCOMES.map((value) => ({ value, label: OUTCOME_WORDS[value] }));
const SCREENING_OPTIONS = SCREENING_VERDICTS.map((value) => ({ value, label: SCREENING_WORDS[value] }));

/** The last search, kept in this tab's memory only (a contact searched for never reaches the address or storage). */
const LAST_SEARCH = ['operator', 'lead-search'] as const;
interface LastSearch {
  draft: Draft;
  result: LeadSearchResult;
}

const COLUMNS: readonly ReportColumn<LeadSearchRow>[] = [
  {
    label: 'Lead',
    cell: (row) => <Link to={`/operator/leads/${encodeURIComponent(row.leadId)}`}>{row.leadId}</Link>,
    text: true,
  },
  { label: 'Created', cell: (row) => row.createdAt?.replace('T', ' ').slice(0, 16) ?? '—', text: true },
  {
    label: 'Source',
    cell: (row) => (row.source === 'partner' ? `Partner ${row.partner ?? ''}` : (row.source ?? '—')),
    text: true,
  },
  { label: 'Affiliate', cell: (row) => row.affiliate ?? '—', text: true },
  { label: 'Outcome', cell: (row) => OUTCOME_WORDS[row.outcome], text: true },
  {
    label: 'Screening',
    cell: (row) =>
      row.screeningVerdict ? `${SCREENING_WORDS[row.screeningVerdict]} (${row.screeningScore ?? '—'})` : '—',
    text: true,
  },
];

/** `/operator/leads`: find a lead by any of its ids, its contact, its attribution or what became of it. */
export default function LeadSearchPage() {
  const queryClient = useQueryClient();
  const last = queryClient.getQueryData<LastSearch>(LAST_SEARCH);
  const [draft, setDraft] = useState<Draft>(last?.draft ?? EMPTY);
  const search = useLeadSearch();
  const result = search.data ?? last?.result;
  const fieldErrors = search.error instanceof ApiRequestError ? search.error.fields : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    const filters = Object.fromEntries(
      Object.entries(draft).filter(([, value]) => value.trim() !== ''),
    ) as Partial<LeadSearchQuery>;
    search.mutate(filters, {
      onSuccess: (found) => queryClient.setQueryData<LastSearch>(LAST_SEARCH, { draft, result: found }),
    });
  }

  return (
    <>
      <PageHeading documentTitle="Find a lead" className={styles.title}>
        Find a lead
      </PageHeading>
      <form className={leads.searchForm} onSubmit={submit} noValidate aria-label="Lead search">
        {FIELDS.map(([name, label, type]) => (
          <TextField
            key={name}
            id={`lead-search-${name}`}
            label={label}
            type={type}
            value={draft[name]}
            error={fieldErrors[name]}
            onValueChange={(value) => setDraft((current) => ({ ...current, [name]: value }))}
          />
        ))}
        <SelectField
          id="lead-search-outcome"
          label="Outcome"
          options={OUTCOME_OPTIONS}
          placeholder="Any outcome"
          value={draft.outcome}
          error={fieldErrors.outcome}
          onValueChange={(value) => setDraft((current) => ({ ...current, outcome: value }))}
        />
        <SelectField
          id="lead-search-screening"
          label="Screening"
          options={SCREENING_OPTIONS}
          placeholder="Any verdict"
          value={draft.screening}
          error={fieldErrors.screening}
          onValueChange={(value) => setDraft((current) => ({ ...current, screening: value }))}
        />
        <div className={styles.apply}>
          <Button type="submit" busy={search.isPending} busyLabel="Searching…">
            Search
          </Button>
        </div>
      </form>
      {search.error && Object.keys(fieldErrors).length === 0 && (
        <p className={styles.failed} role="alert">
          {search.error.message || 'The search failed. Please try again.'}
        </p>
      )}
      {result && (
        <section className={styles.section} aria-labelledby="lead-results-heading">
          <h2 id="lead-results-heading">
            {result.more ? `The newest ${result.leads.length} leads found` : `${result.leads.length} found`}
          </h2>
          {result.more && <p>More leads match: narrow the search to see them.</p>}
          <ReportTable
            id="lead-results"
            caption="Leads found, newest first"
            columns={COLUMNS}
            rows={result.leads}
            rowKey={(row) => row.leadId}
            empty="No lead matches this search."
          />
        </section>
      )}
    </>
  );
}

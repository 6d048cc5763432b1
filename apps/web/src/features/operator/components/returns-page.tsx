import { useState } from 'react';
import { Link } from 'react-router';
import { RETURN_STATUSES, type ReturnQueueRow, type ReturnStatus } from '@funnel/contracts/buyer-api';
import { roleAllows } from '@funnel/contracts/operators';
import { SelectField } from '@/components/form/select-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { useOperatorSession } from '../api/operator-session';
import { useDecideReturn, useReturns } from '../api/returns';
import { formatMoney } from '../utils/number-format';
import { ReportTable, type ReportColumn } from './report-table';
import { ReverseReturnPanel } from './reverse-return-panel';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';
import leads from './leads.module.css';

const STATUS_LABELS: Record<ReturnStatus, string> = {
  pending: 'Waiting for a decision',
  approved: 'Approved',
  rejected: 'Rejected',
  reversed: 'Reversed',
};
const STATUS_OPTIONS = RETURN_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

const DECISIONS = [
  ['approve', 'Approve'],
  ['reject', 'Reject'],
] as const;

const minute = (iso: string) => iso.replace('T', ' ').slice(0, 16);
const words = (code: string) => code.replaceAll('_', ' ');

function decidedWords(r: ReturnQueueRow): string {
  const by = r.decidedBy === 'rule' ? " by the buyer's rule" : '';
  const what =
    r.status === 'reversed' ? 'Approval reversed' : r.status === 'approved' ? 'Approved' : 'Rejected';
  return `${what}${r.status === 'reversed' ? '' : by}${r.decidedAt ? `, ${minute(r.decidedAt)}` : ''}`;
}

/**
 * `/operator/returns` (manager): the buyers' returns by status, each with its reason, buyer, lead, sale, window
 * and cap, for a pending one the manager's approve or reject, and for an approved or rejected one its reversal
 * (ADR 0020; each decision audited, ADR 0021). Only a manager or an admin is offered a decision.
 */
export function ReturnsPage() {
  const [status, setStatus] = useState<ReturnStatus>('pending');
  const [reversing, setReversing] = useState<ReturnQueueRow | undefined>();
  const returns = useReturns(status);
  const decide = useDecideReturn();
  const session = useOperatorSession();
  const account = session.data?.signedIn ? session.data.account : undefined;
  const manager = account !== undefined && roleAllows(account.role, 'manager');
  const refusal =
    decide.error instanceof ApiRequestError
      ? (decide.error.fields.decision ?? decide.error.message)
      : decide.error && messageOf(decide.error);

  const columns: ReportColumn<ReturnQueueRow>[] = [
    {
      label: 'Lead',
      text: true,
      cell: (r) => (
        <Link className={leads.leadId} to={`/operator/leads/${encodeURIComponent(r.leadId)}`}>
          {r.leadId}
        </Link>
      ),
    },
    {
      label: status === 'pending' ? 'Decision' : 'Decided',
      text: true,
      cell: (r) =>
        !manager ? (
          r.status === 'pending' ? (
            'Waiting'
          ) : (
            decidedWords(r)
          )
        ) : r.status === 'pending' ? (
          <span className={leads.decisions}>
            {DECISIONS.map(([decision, label]) => (
              <Button
                key={decision}
                variant="link"
                aria-label={`${label} the return of ${r.leadId}`}
                disabled={decide.isPending}
                onClick={() => decide.mutate({ returnId: r.returnId, decision })}
              >
                {label}
              </Button>
            ))}
          </span>
        ) : r.status === 'reversed' ? (
          decidedWords(r)
        ) : (
          <span className={leads.decisions}>
            {decidedWords(r)}
            <Button
              variant="link"
              aria-label={`Reverse the return of ${r.leadId}`}
              onClick={() => setReversing(r)}
            >
              Reverse
            </Button>
          </span>
        ),
    },
    { label: 'Buyer', cell: (r) => r.buyer, text: true },
    {
      label: 'Reason',
      text: true,
      cell: (r) => (
        <span className={leads.wrapping}>{r.note ? `${words(r.reason)}: “${r.note}”` : words(r.reason)}</span>
      ),
    },
    { label: 'Price', cell: (r) => formatMoney(r.price) },
    {
      label: 'Filed',
      text: true,
      cell: (r) => <span className={leads.narrow}>{minute(r.filedAt)}</span>,
    },
    {
      label: 'Window and cap',
      text: true,
      cell: (r) => (
        <span className={leads.wrapping}>
          {`Closes ${minute(r.windowClosesAt)} (sold ${r.soldAt.slice(0, 10)}); cap ${r.cap}`}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeading id="operator-returns" documentTitle="Returns">
        Returns
      </PageHeading>
      <form
        className={styles.filters}
        onSubmit={(event) => event.preventDefault()}
        aria-label="Returns shown"
      >
        <SelectField
          id="returns-status"
          label="Status"
          options={STATUS_OPTIONS}
          value={status}
          onValueChange={(value) => {
            decide.reset();
            setReversing(undefined);
            setStatus(value as ReturnStatus);
          }}
        />
      </form>
      <p>
        The buyer&apos;s return window and cap were checked when it filed; a pending return counts against the
        cap. Approving reverses the sale&apos;s revenue (and the affiliate&apos;s payout when it was paid). A
        decided return can be reversed once, while its window is open.
      </p>
      {refusal && (
        <p className={styles.failed} role="alert">
          {refusal}
        </p>
      )}
      {decide.data && !decide.error && (
        <p role="status">
          {`The return of ${decide.data.leadId} is ${decide.data.status}.`}
          {decide.data.status === 'approved' && ' The sale’s revenue is reversed.'}
        </p>
      )}
      {reversing && (
        <ReverseReturnPanel
          key={reversing.returnId}
          row={reversing}
          onClose={() => setReversing(undefined)}
        />
      )}
      {returns.error ? (
        <p className={styles.failed} role="alert">
          {messageOf(returns.error)}
        </p>
      ) : (
        <section className={styles.section} aria-label="Returns">
          <ReportTable
            id="returns"
            caption="Oldest filed first; times in UTC."
            columns={columns}
            rows={returns.data?.returns ?? []}
            rowKey={(r) => r.returnId}
            oneColumn
            empty={returns.isPending ? 'Loading…' : 'No returns with this status.'}
          />
        </section>
      )}
    </>
  );
}

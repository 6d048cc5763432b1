import { useState, type FormEvent } from 'react';
import type { ReturnQueueRow } from '@funnel/contracts/buyer-api';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { ApiRequestError } from '@/lib/api-request-error';
import { useReverseReturn } from '../api/returns';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';
import leads from './leads.module.css';

/** What reversing does to a return of each decided status, in the operator's words. */
const EFFECT: Record<'approved' | 'rejected', string> = {
  approved:
    'The sale stands again: the buyer is charged its price, the return leaves its cap, and the affiliate’s ' +
    'payout is restored (an affiliate told of the reversal is told again).',
  rejected:
    'The return is approved: the sale’s revenue is reversed, and the affiliate’s payout when it was paid. ' +
    'Only while the return window is open and the buyer’s cap allows it.',
};

/**
 * A manager's reversal of a decided return (ADR 0021, "Reversing a return"), for a reason the audit log and the
 * lead's journey keep. A reversal is final.
 */
export function ReverseReturnPanel({ row, onClose }: { row: ReturnQueueRow; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const reverse = useReverseReturn();
  const fields = reverse.error instanceof ApiRequestError ? reverse.error.fields : {};
  const from = row.status === 'approved' ? 'approved' : 'rejected';

  function submit(event: FormEvent) {
    event.preventDefault();
    reverse.mutate({ returnId: row.returnId, reason: reason.trim() });
  }

  if (reverse.data) {
    return (
      <section className={styles.section} aria-labelledby="reverse-return-heading">
        <h2 id="reverse-return-heading">Return reversed</h2>
        <p
          role="status"
          className={leads.leadId}
        >{`The return of ${reverse.data.leadId} is now ${reverse.data.status}.`}</p>
        <Button variant="link" onClick={onClose}>
          Close
        </Button>
      </section>
    );
  }
  return (
    <section className={styles.section} aria-labelledby="reverse-return-heading">
      <h2
        id="reverse-return-heading"
        className={leads.leadId}
      >{`Reverse the ${from} return of ${row.leadId}`}</h2>
      <p>{EFFECT[from]} A reversal is final.</p>
      <form className={leads.searchForm} onSubmit={submit} noValidate aria-label="Reverse the return">
        <TextField
          id="reverse-reason"
          label="Reason"
          hint="10 to 500 characters: the audit log and the lead's journey keep it."
          value={reason}
          onValueChange={setReason}
          error={fields.reason ?? (reverse.error ? messageOf(reverse.error) : undefined)}
          autoComplete="off"
        />
        <div className={styles.apply}>
          <Button type="submit" busy={reverse.isPending} busyLabel="Reversing…">
            Reverse the return
          </Button>
          <Button variant="link" type="button" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import {
  REVEALABLE_FIELDS,
  REVEAL_REASON_MIN,
  type LeadReveal,
  type RevealableField,
} from '@funnel/contracts/lead-reveal';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { ApiRequestError } from '@/lib/api-request-error';
import { useRevealLeadField } from '../api/reveal-lead-field';
import { FIELD_LABELS } from '../utils/revealable-field-labels';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';
import leads from './leads.module.css';

const OPTIONS = REVEALABLE_FIELDS.map((value) => ({ value, label: FIELD_LABELS[value] }));

/**
 * An admin's "reveal a masked answer" (issue 33): one field, for a reason the audit log keeps. What is revealed
 * lives in this component's state only: gone when the page is left, never in the browser's storage.
 */
export function RevealPanel({ leadId }: { leadId: string }) {
  const [field, setField] = useState<RevealableField>('email');
  const [reason, setReason] = useState('');
  const [revealed, setRevealed] = useState<LeadReveal[]>([]);
  const reveal = useRevealLeadField(leadId);
  const fields = reveal.error instanceof ApiRequestError ? reveal.error.fields : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    reveal.mutate(
      { field, reason: reason.trim() },
      {
        onSuccess: (answer) =>
          setRevealed((shown) => [...shown.filter((r) => r.field !== answer.field), answer]),
      },
    );
  }

  return (
    <section className={styles.section} aria-labelledby="lead-reveal-heading">
      <h2 id="lead-reveal-heading">Personal data</h2>
      <p>
        Answers stay masked. Reveal one only when you need it: the audit log keeps who, which field and why.
      </p>
      <form className={leads.searchForm} onSubmit={submit} noValidate aria-label="Reveal a value">
        <SelectField
          id="reveal-field"
          label="Field"
          options={OPTIONS}
          value={field}
          onValueChange={(value) => setField(value as RevealableField)}
          error={fields.field}
        />
        <TextField
          id="reveal-reason"
          label="Reason"
          hint={`At least ${REVEAL_REASON_MIN} characters, e.g. the ticket you are working on.`}
          value={reason}
          onValueChange={setReason}
          error={fields.reason ?? (reveal.error && !fields.field ? messageOf(reveal.error) : undefined)}
          autoComplete="off"
        />
        <div className={styles.apply}>
          <Button type="submit" busy={reveal.isPending} busyLabel="Revealing…">
            Reveal
          </Button>
        </div>
      </form>
      {revealed.length > 0 && (
        <dl className={leads.summary} aria-label="Revealed values">
          {revealed.map((r) => (
            <div key={r.field} className={leads.revealed}>
              <dt>{FIELD_LABELS[r.field]}</dt>
              <dd>{r.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

import { Link, useParams } from 'react-router';
import { roleAllows } from '@funnel/contracts/operators';
import { LEAD_SOURCE_LABELS } from '@funnel/contracts/reports';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { useLeadJourney } from '../api/leads';
import { useOperatorSession } from '../api/operator-session';
import { OUTCOME_WORDS, duplicateOf, journeyLine, journeyPath } from '../utils/journey-lines';
import { formatMoney } from '../utils/number-format';
import { outcomeReasonLabel } from '../utils/outcome-reason-labels';
import { RevealPanel } from './reveal-panel';
import styles from './operator.module.css';
import leads from './leads.module.css';

const when = (iso: string | null) => (iso ? `${iso.replace('T', ' ').slice(0, 19)} UTC` : '—');

/**
 * `/operator/leads/:leadId`: everything the system of record holds of one lead, oldest first; for an admin, a
 * way to reveal one masked answer for a reason (the other roles are not offered it; the BFF refuses them).
 */
export default function LeadJourneyPage() {
  const { leadId = '' } = useParams();
  const journey = useLeadJourney(leadId);
  const session = useOperatorSession();
  const account = session.data?.signedIn ? session.data.account : undefined;
  const admin = account !== undefined && roleAllows(account.role, 'admin');
  const duplicate = journey.data ? duplicateOf(journey.data.timeline) : undefined;
  const summary = journey.data?.summary;
  const sale = journey.data?.sale;

  return (
    <>
      <p>
        <Link to="/operator/leads">Back to the search</Link>
      </p>
      <PageHeading documentTitle="Lead journey" className={styles.title}>
        Lead {leadId}
      </PageHeading>
      {journey.data && summary ? (
        <>
          {journey.data.erased && (
            <p className={leads.erased} role="status">
              This person&apos;s data was erased on a deletion request. What follows is what is left: ids,
              times, steps, buyer attempts and the outcome, none of which names them.
            </p>
          )}
          <section className={styles.section} aria-labelledby="lead-summary-heading">
            <h2 id="lead-summary-heading">Summary</h2>
            <dl className={leads.summary}>
              <dt>Created</dt>
              <dd>{when(summary.createdAt)}</dd>
              <dt>Source</dt>
              <dd>
                {summary.source === 'partner'
                  ? `${LEAD_SOURCE_LABELS.partner}: ${summary.partner ?? '—'}`
                  : summary.source
                    ? LEAD_SOURCE_LABELS[summary.source]
                    : '—'}
              </dd>
              <dt>Affiliate</dt>
              <dd>{summary.affiliate ?? '—'}</dd>
              <dt>Amount</dt>
              <dd>{formatMoney(summary.amount)}</dd>
              <dt>Submitted</dt>
              <dd>{when(summary.submittedAt)}</dd>
              <dt>Outcome</dt>
              <dd>
                {OUTCOME_WORDS[summary.outcome]}
                {summary.outcomeReason && ` (${outcomeReasonLabel(summary.outcomeReason)})`}
              </dd>
              <dt>Bought by</dt>
              <dd>
                {sale
                  ? `${sale.buyer} for ${formatMoney(sale.price)}${sale.returned ? ' (the sale was returned)' : ''}`
                  : 'No buyer'}
              </dd>
              {duplicate && (
                <>
                  <dt>Duplicate of</dt>
                  <dd className={leads.leadId}>
                    {duplicate.original ? (
                      <Link to={journeyPath(duplicate.original)}>Lead {duplicate.original}</Link>
                    ) : (
                      'Not recorded'
                    )}
                  </dd>
                </>
              )}
              <dt>Trace</dt>
              <dd>{journey.data.traceId ?? '—'}</dd>
            </dl>
          </section>
          {admin && !journey.data.erased && (
            // A new lead (followed from a duplicate) starts with nothing revealed.
            <RevealPanel key={leadId} leadId={leadId} />
          )}
          <section className={styles.section} aria-labelledby="lead-timeline-heading">
            <h2 id="lead-timeline-heading">Timeline</h2>
            <ol className={leads.timeline}>
              {journey.data.timeline.map((entry, index) => {
                const line = journeyLine(entry, duplicate);
                return (
                  <li key={index}>
                    <time dateTime={entry.at}>{when(entry.at)}</time>
                    <h3>{line.title}</h3>
                    {(line.details.length > 0 || line.link) && (
                      <ul className={leads.details}>
                        {line.details.map((detail) => (
                          <li key={detail}>{detail}</li>
                        ))}
                        {line.link && (
                          <li>
                            <Link to={line.link.to}>{line.link.text}</Link>
                          </li>
                        )}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          </section>
        </>
      ) : journey.error ? (
        <p className={styles.failed} role="alert">
          {journey.error.message || 'The lead could not be loaded. Please try again.'}
        </p>
      ) : (
        <PageLoader message="Loading the lead…" />
      )}
    </>
  );
}

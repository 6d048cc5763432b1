import { useEffect, useState } from 'react';
import {
  LeadOutcomeSchema,
  OUTCOME_EVENT,
  isFinalOutcome,
  type LeadOutcome,
} from '@funnel/contracts/lead-outcome';
import { latestOutcome } from '@/lib/outcome-route-state';

const EVENTS_URL = '/api/v1/lead/events';

/** Waits before reopening a stream the server refused, growing with each refusal in a row. */
const REOPEN_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

function parseOutcome(data: unknown): LeadOutcome | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const parsed = LeadOutcomeSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GET /api/v1/lead/events — the visitor's lead outcome as the BFF pushes it (server-sent events, event
 * `outcome`): the current state at once, then every change. The browser's EventSource reconnects by itself after
 * a dropped connection, sending `Last-Event-ID`; a stream the server answered with an error is closed for good by
 * the browser, so it is reopened here after a growing delay. The stream is closed once the outcome is final.
 * Nothing here asks the lender network anything: the worker does, and the BFF pushes what it learns.
 */
export function useLeadOutcomeEvents(): LeadOutcome | undefined {
  const [outcome, setOutcome] = useState<LeadOutcome>();

  useEffect(() => {
    let source: EventSource | undefined;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;

    const open = () => {
      const stream = new EventSource(EVENTS_URL);
      source = stream;
      stream.addEventListener('open', () => {
        refusals = 0;
      });
      stream.addEventListener(OUTCOME_EVENT, (event) => {
        const next = parseOutcome(event.data);
        if (!next) return;
        setOutcome((current) => latestOutcome(current, next));
        if (isFinalOutcome(next.outcome)) stream.close();
      });
      stream.addEventListener('error', () => {
        if (stream.readyState !== EventSource.CLOSED) return;
        const delay = REOPEN_DELAYS_MS[Math.min(refusals, REOPEN_DELAYS_MS.length - 1)];
        refusals += 1;
        reopenTimer = setTimeout(open, delay);
      });
    };

    open();
    return () => {
      clearTimeout(reopenTimer);
      source?.close();
    };
  }, []);

  return outcome;
}

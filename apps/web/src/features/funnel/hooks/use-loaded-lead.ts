import type { LeadSummary } from '@funnel/contracts/api';
import { useLead } from '@/lib/get-lead';
import { usePublicConfig } from '@/lib/public-config';

/**
 * What a step screen draws with before the visitor's lead has arrived: the prerendered HTML, and the first render
 * in the browser that hydrates it (docs/adr/0019-html-first-borrower-screens.md). No answer is known, so every
 * field starts empty; nothing is ever saved or checked against it.
 */
const UNKNOWN_LEAD: LeadSummary = { answers: {}, masked: {}, nextStep: 'lgname', progress: 0 };

/**
 * The lead for screens inside the funnel layout, which renders them before it has loaded: `ready` is false until
 * the lead (and the configuration, whose time zone dates are checked in) is there, and `lead` is then an empty
 * stand-in.
 */
export function useLoadedLead(): { lead: LeadSummary; ready: boolean } {
  const { data } = useLead();
  const config = usePublicConfig();
  return { lead: data ?? UNKNOWN_LEAD, ready: data !== undefined && !config.isPending };
}

import type { LeadSummary } from '@funnel/contracts/api';
import { useLead } from '@/lib/get-lead';

/** The lead, for screens inside the funnel layout, which renders them only once the lead has loaded. */
export function useLoadedLead(): LeadSummary {
  const { data } = useLead();
  if (!data) throw new Error('useLoadedLead is for screens inside FunnelLayout, which waits for the lead.');
  return data;
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSENT_VERSION, type SubmitButton, type SubmitLeadRequest } from '@funnel/contracts/consent';
import { SubmitAcceptedSchema, type SubmitAccepted } from '@funnel/contracts/lead-outcome';
import { apiRequest } from '@/lib/api-client';
import type { ConsentCertificates } from '@/lib/consent-certificates';
import { LEAD_QUERY_KEY } from '@/lib/get-lead';

export interface SubmitLeadInput extends ConsentCertificates {
  button: SubmitButton;
  /** The screen the button was pressed on, recorded with the consent. */
  pagePath: string;
}

/**
 * POST /api/v1/lead/submit — sends the complete application to lenders with the consent the button gives (the
 * text shown is the current `CONSENT_VERSION`). 202 with the outcome so far; 400 INCOMPLETE_LEAD names the first
 * unanswered step in `fields.step`. Repeats answer the same and never submit twice. The consent certificates of
 * the button's page, when present, replace the landing page's.
 */
export function submitLead({ button, pagePath, ...certificates }: SubmitLeadInput): Promise<SubmitAccepted> {
  const body: SubmitLeadRequest = { button, consentVersion: CONSENT_VERSION, pagePath, ...certificates };
  return apiRequest('/lead/submit', SubmitAcceptedSchema, { method: 'POST', body });
}

/** Submits the application; the lead read afterwards carries its outcome. */
export function useSubmitLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitLead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEAD_QUERY_KEY }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StepSavedSchema, type StepSaved } from '@funnel/contracts/api';
import type { ClientAnswers, StepName } from '@funnel/contracts/steps';
import { apiRequest } from '@/lib/api-client';
import { LEAD_QUERY_KEY } from '@/lib/get-lead';

export interface SaveStepInput {
  step: StepName;
  /** The step's fields, client names, as its contracts schema outputs them. */
  answers: ClientAnswers;
}

/** PUT /api/v1/lead/steps/:step — saves one step; answers where to go next, or 400 with per-field messages. */
export function saveStep({ step, answers }: SaveStepInput): Promise<StepSaved> {
  return apiRequest(`/lead/steps/${step}`, StepSavedSchema, { method: 'PUT', body: answers });
}

/**
 * Saves a step, then waits for the lead to be read back, so the next screen (and the previous one, on Back)
 * starts from what the BFF stored, derived fields included.
 */
export function useSaveStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStep,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEAD_QUERY_KEY }),
  });
}

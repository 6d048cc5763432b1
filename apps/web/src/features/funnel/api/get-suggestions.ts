import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  SuggestQuerySchema,
  SuggestionsSchema,
  type SuggestField,
  type Suggestions,
} from '@funnel/contracts/api';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { apiRequest } from '@/lib/api-client';

/** Spec §9: suggestions are asked for once typing pauses for 300 ms. */
export const SUGGEST_DEBOUNCE_MS = 300;

/** GET /api/v1/suggest/:field?q= — names, job titles and employers starting with `q`. */
export function getSuggestions(field: SuggestField, q: string, signal?: AbortSignal): Promise<Suggestions> {
  return apiRequest(`/suggest/${field}?${new URLSearchParams({ q })}`, SuggestionsSchema, { signal });
}

/**
 * Suggestions for what is typed in `field`, asked for after a 300 ms pause and only for 1 to 49 characters (the
 * contracts' query rule). Failures leave the list empty: suggestions are a convenience, never a blocker.
 */
export function useSuggestions(field: SuggestField, text: string): readonly string[] {
  const q = useDebouncedValue(text.trim(), SUGGEST_DEBOUNCE_MS);
  const enabled = SuggestQuerySchema.safeParse({ q }).success;
  const { data } = useQuery({
    queryKey: ['suggestions', field, q],
    queryFn: ({ signal }) => getSuggestions(field, q, signal),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
  return enabled ? (data?.suggestions ?? []) : [];
}

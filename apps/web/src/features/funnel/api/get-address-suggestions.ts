import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AddressSuggestQuerySchema, SuggestionsSchema, type Suggestions } from '@funnel/contracts/api';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { apiRequest } from '@/lib/api-client';
import { SUGGEST_DEBOUNCE_MS } from './get-suggestions';

/** GET /api/v1/suggest/address?q=&zip= — up to five street addresses, near the ZIP code when given. */
export function getAddressSuggestions(
  q: string,
  zip: string | undefined,
  signal?: AbortSignal,
): Promise<Suggestions> {
  const params = new URLSearchParams({ q, ...(zip ? { zip } : {}) });
  return apiRequest(`/suggest/address?${params}`, SuggestionsSchema, { signal });
}

/** Street-address suggestions after a 300 ms pause, once more than one character is typed (spec §5). */
export function useAddressSuggestions(text: string, zip: string): readonly string[] {
  const q = useDebouncedValue(text.trim(), SUGGEST_DEBOUNCE_MS);
  const zipFilter = /^\d{5}$/.test(zip) ? zip : undefined;
  const enabled = AddressSuggestQuerySchema.safeParse({ q, zip: zipFilter }).success;
  const { data } = useQuery({
    queryKey: ['address-suggestions', q, zipFilter],
    queryFn: ({ signal }) => getAddressSuggestions(q, zipFilter, signal),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
  return enabled ? (data?.suggestions ?? []) : [];
}

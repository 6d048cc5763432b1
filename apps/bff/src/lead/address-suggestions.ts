export interface AddressSuggestions {
  suggest(query: string, zip: string | undefined): Promise<string[]>;
}

const MAX_RESULTS = 5;

/**
 * Street-address suggestions from a configured provider speaking the observed address-suggest call
 * (GET with zip, address, max_results; answer `{ suggestions: string[] | { address }[] }`).
 * With no provider configured the list is empty: the field still works as plain text.
 */
export function createAddressSuggestions(provider?: { url: string; timeoutMs: number }): AddressSuggestions {
  return {
    async suggest(query, zip) {
      if (!provider) return [];
      try {
        const url = new URL(provider.url);
        url.searchParams.set('address', query);
        if (zip) url.searchParams.set('zip', zip);
        url.searchParams.set('max_results', String(MAX_RESULTS));
        const response = await fetch(url, { signal: AbortSignal.timeout(provider.timeoutMs) });
        if (!response.ok) return [];
        const body = (await response.json()) as { suggestions?: unknown };
        if (!Array.isArray(body.suggestions)) return [];
        return body.suggestions
          .map((s) => (typeof s === 'string' ? s : (s as { address?: unknown })?.address))
          .filter((s): s is string => typeof s === 'string' && s.length > 0)
          .slice(0, MAX_RESULTS);
      } catch {
        return [];
      }
    },
  };
}

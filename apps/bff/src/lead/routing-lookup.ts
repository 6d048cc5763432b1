import { displayBankName } from '../reference-data/display-names.js';
import type { RoutingDirectory } from '../reference-data/routing-directory.js';

export interface RoutingLookup {
  lookup(routingNumber: string): Promise<{ bankName: string } | undefined>;
}

/**
 * Bank name for a routing number: the FedACH directory first, then an optional upstream service for numbers
 * the directory lacks (its answer shape is the one the observed client read: first item with status
 * 'success' and `data.name`), in title case (docs/product-rules.md §bank-details). An upstream failure is treated as "unknown", never as an error to the visitor.
 */
export function createRoutingLookup(
  directory: RoutingDirectory,
  upstream?: { url: string; timeoutMs: number },
): RoutingLookup {
  return {
    async lookup(routingNumber) {
      const known = directory.lookup(routingNumber);
      if (known) return { bankName: displayBankName(known.bankName) };
      if (!upstream) return undefined;
      try {
        const url = new URL(`${upstream.url.replace(/\/$/, '')}/${routingNumber}`);
        url.searchParams.set('format', 'json');
        url.searchParams.set('paymentType', 'ach');
        const response = await fetch(url, { signal: AbortSignal.timeout(upstream.timeoutMs) });
        if (!response.ok) return undefined;
        const body: unknown = await response.json();
        const items = Array.isArray(body) ? body : [body];
        for (const item of items) {
          const name = (item as { status?: string; data?: { name?: unknown } })?.data?.name;
          if ((item as { status?: string }).status === 'success' && typeof name === 'string' && name.trim()) {
            return { bankName: displayBankName(name) };
          }
        }
        return undefined;
      } catch {
        return undefined;
      }
    },
  };
}

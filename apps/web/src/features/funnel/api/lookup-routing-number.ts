import { queryOptions, useQuery } from '@tanstack/react-query';
import { BankLookupSchema, type BankLookup } from '@funnel/contracts/api';
import { isValidRoutingNumber } from '@funnel/contracts/rules/aba';
import { apiRequest } from '@/lib/api-client';

/**
 * GET /api/v1/lookup/routing/:n — the bank of a routing number: 400 for a bad check digit, 404 when the number is
 * valid but no directory knows it (the screen then asks for the bank name).
 */
export function lookupRoutingNumber(routingNumber: string, signal?: AbortSignal): Promise<BankLookup> {
  return apiRequest(`/lookup/routing/${routingNumber}`, BankLookupSchema, { signal });
}

export function routingLookupOptions(routingNumber: string) {
  return queryOptions({
    queryKey: ['routing-lookup', routingNumber],
    queryFn: ({ signal }) => lookupRoutingNumber(routingNumber, signal),
    staleTime: Infinity,
    retry: false,
  });
}

/** Looks the bank up as soon as nine digits with a valid check digit are typed. */
export function useRoutingLookup(routingNumber: string) {
  return useQuery({ ...routingLookupOptions(routingNumber), enabled: isValidRoutingNumber(routingNumber) });
}

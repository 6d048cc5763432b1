import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AuditPageSchema,
  CreatedOperatorAccountSchema,
  OperatorAccountListSchema,
  OperatorAccountSchema,
  type AuditSearch,
  type NewOperatorAccountInput,
  type OperatorAccountChange,
} from '@funnel/contracts/operators';
import { apiRequest } from '@/lib/api-client';

const accountsKey = ['operator', 'accounts'] as const;

/** GET /api/v1/admin/accounts — every operator account (admin). */
export function useAccounts() {
  return useQuery({
    queryKey: accountsKey,
    queryFn: ({ signal }) => apiRequest('/admin/accounts', OperatorAccountListSchema, { signal }),
  });
}

/** POST /api/v1/admin/accounts — a new account and its one-time set-up link. */
export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewOperatorAccountInput) =>
      apiRequest('/admin/accounts', CreatedOperatorAccountSchema, { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKey }),
  });
}

/** PATCH /api/v1/admin/accounts/:id — a role, or disabled / enabled. */
export function useChangeAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, change }: { accountId: string; change: OperatorAccountChange }) =>
      apiRequest(`/admin/accounts/${accountId}`, OperatorAccountSchema, { method: 'PATCH', body: change }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKey }),
  });
}

/** POST /api/v1/admin/accounts/:id/reset — no password nor second factor until the new set-up link is used. */
export function useResetAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) =>
      apiRequest(`/admin/accounts/${accountId}/reset`, CreatedOperatorAccountSchema, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKey }),
  });
}

export interface AuditFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
  /** An email address or a phone number: the entries about that person. Never in a URL. */
  person: string;
}

/** The filters set, the person left out (it travels in a body only). */
function setFilters({ person: _person, ...filters }: AuditFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
}

/** The audit query string: only the filters set, never the person. */
export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ ...setFilters(filters), ...extra }).toString();
}

/** The person filter as the search takes it: an email when it has an @, else a phone number. */
function personOf(person: string): Pick<AuditSearch, 'email' | 'phone'> {
  const trimmed = person.trim();
  return trimmed.includes('@') ? { email: trimmed } : { phone: trimmed };
}

/**
 * GET /api/v1/admin/audit — newest first, filtered (admin); with a person, POST /api/v1/admin/audit/search, so
 * the email or phone stays out of the URL (the BFF finds the entries by its keyed hash).
 */
export function useAudit(filters: AuditFilters) {
  return useQuery({
    queryKey: ['operator', 'audit', filters],
    queryFn: ({ signal }) =>
      filters.person.trim()
        ? apiRequest('/admin/audit/search', AuditPageSchema, {
            method: 'POST',
            body: { ...setFilters(filters), ...personOf(filters.person) },
            signal,
          })
        : apiRequest(`/admin/audit?${auditQuery(filters)}`, AuditPageSchema, { signal }),
  });
}

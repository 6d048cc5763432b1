import { useEffect } from 'react';
import * as z from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OperatorSessionSchema,
  RecoveryCodesSchema,
  TotpEnrolmentSchema,
  type AccountSetup,
  type OidcLink,
  type OperatorSession,
  type OperatorSignIn,
} from '@funnel/contracts/operators';
import { apiRequest } from '@/lib/api-client';
import { ApiRequestError } from '@/lib/api-request-error';

export const operatorSessionKey = ['operator', 'session'] as const;

/** GET /api/v1/admin/session — whether this browser holds a live console session, and whose (HttpOnly cookie). */
export function getOperatorSession(signal?: AbortSignal): Promise<OperatorSession> {
  return apiRequest('/admin/session', OperatorSessionSchema, { signal });
}

/**
 * POST /api/v1/admin/session — email, password and, once enrolled, the TOTP code or a recovery code; one 401 for
 * anything wrong (it never says which part).
 */
export async function signIn(credentials: OperatorSignIn): Promise<void> {
  await apiRequest('/admin/session', z.undefined(), { method: 'POST', body: credentials });
}

/** POST /api/v1/admin/oidc/link — proves the console account the provider's email named, once (HttpOnly cookie). */
export async function linkOidcAccount(proof: OidcLink): Promise<void> {
  await apiRequest('/admin/oidc/link', z.undefined(), { method: 'POST', body: proof });
}

/** DELETE /api/v1/admin/session — ends this browser's session. */
export async function signOut(): Promise<void> {
  await apiRequest('/admin/session', z.undefined(), { method: 'DELETE' });
}

/** DELETE /api/v1/admin/sessions — ends every session of the account. */
export async function signOutEverywhere(): Promise<void> {
  await apiRequest('/admin/sessions', z.undefined(), { method: 'DELETE' });
}

/** POST /api/v1/admin/account-setup — the one-time link's token and the chosen password. */
export async function completeSetup(setup: AccountSetup): Promise<void> {
  await apiRequest('/admin/account-setup', z.undefined(), { method: 'POST', body: setup });
}

/** POST /api/v1/admin/me/second-factor — a secret to enrol. */
export function startSecondFactor() {
  return apiRequest('/admin/me/second-factor', TotpEnrolmentSchema, { method: 'POST' });
}

/** PUT /api/v1/admin/me/second-factor — confirms it with a first code; answers the ten recovery codes, once. */
export function confirmSecondFactor(code: string) {
  return apiRequest('/admin/me/second-factor', RecoveryCodesSchema, { method: 'PUT', body: { code } });
}

export function useOperatorSession() {
  return useQuery({
    queryKey: operatorSessionKey,
    queryFn: ({ signal }) => getOperatorSession(signal),
    staleTime: Infinity,
  });
}

/** Signing in or out changes what every operator query may read: they are dropped, and the session re-read. */
function useSessionChange<A>(mutationFn: (arg: A) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ['operator'], predicate: (q) => q.queryKey[1] !== 'session' });
      await queryClient.invalidateQueries({ queryKey: operatorSessionKey });
    },
  });
}

export const useSignIn = () => useSessionChange(signIn);
export const useLinkOidcAccount = () => useSessionChange(linkOidcAccount);
export const useSignOut = () => useSessionChange(signOut);
export const useSignOutEverywhere = () => useSessionChange(signOutEverywhere);
/**
 * After the recovery codes were shown: the session (started over with the factor by the BFF) is read again. Not
 * on the confirmation itself, so the page that shows the codes stays until the person has saved them.
 */
export const useSessionReread = () => useSessionChange(() => Promise.resolve());

/**
 * A 401 on any operator read (the session expired, was ended everywhere, or the account was disabled): the
 * session is read again, and the page asks to sign in.
 */
export function useSignOutOn401(error: Error | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (error instanceof ApiRequestError && error.status === 401) {
      void queryClient.invalidateQueries({ queryKey: operatorSessionKey });
    }
  }, [error, queryClient]);
}

import { useEffect } from 'react';
import * as z from 'zod';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { OperatorSessionSchema, type OperatorSession } from '@funnel/contracts/reports';
import { apiRequest } from '@/lib/api-client';
import { ApiRequestError } from '@/lib/api-request-error';

export const operatorSessionKey = ['operator', 'session'] as const;

/** GET /api/v1/admin/session — whether this browser holds a valid operator cookie (HttpOnly: only the BFF knows). */
export function getOperatorSession(signal?: AbortSignal): Promise<OperatorSession> {
  return apiRequest('/admin/session', OperatorSessionSchema, { signal });
}

/** POST /api/v1/admin/session — exchanges the operator token for the operator cookie; 401 for a wrong token. */
export async function signIn(token: string): Promise<void> {
  await apiRequest('/admin/session', z.undefined(), { method: 'POST', body: { token } });
}

/** DELETE /api/v1/admin/session — clears the operator cookie. */
export async function signOut(): Promise<void> {
  await apiRequest('/admin/session', z.undefined(), { method: 'DELETE' });
}

/** Every operator read but the session itself: reports, searches (a searched contact among them), journeys. */
function dropOperatorData(queryClient: QueryClient) {
  queryClient.removeQueries({
    queryKey: ['operator'],
    predicate: (query) => query.queryKey[1] !== operatorSessionKey[1],
  });
}

export function useOperatorSession() {
  return useQuery({
    queryKey: operatorSessionKey,
    queryFn: ({ signal }) => getOperatorSession(signal),
    staleTime: Infinity,
  });
}

/** Signing in or out changes what every operator query may read: they are dropped, and the session re-read. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: () => {
      dropOperatorData(queryClient);
      queryClient.setQueryData<OperatorSession>(operatorSessionKey, { signedIn: true });
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      dropOperatorData(queryClient);
      queryClient.setQueryData<OperatorSession>(operatorSessionKey, { signedIn: false });
    },
  });
}

/** A 401 on any operator read (the cookie expired after 8 hours, or was cleared) signs the page out. */
export function useSignOutOn401(error: Error | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (error instanceof ApiRequestError && error.status === 401) {
      queryClient.setQueryData<OperatorSession>(operatorSessionKey, { signedIn: false });
    }
  }, [error, queryClient]);
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, lazySchema } from '@/lib/api-client';
import { PUBLIC_CONFIG_QUERY_KEY } from '@/lib/public-config';

const nothing = lazySchema(() => import('zod').then((z) => z.undefined()));

/** DELETE /api/v1/lead — 'Start over': the BFF erases the unfinished draft and clears the session cookie. */
export function abandonLead(): Promise<undefined> {
  return apiRequest('/lead', nothing, { method: 'DELETE' });
}

/** Abandons the draft; nothing cached about it survives (the public configuration is about no one and stays). */
export function useAbandonLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: abandonLead,
    onSuccess: () =>
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== PUBLIC_CONFIG_QUERY_KEY[0],
      }),
  });
}

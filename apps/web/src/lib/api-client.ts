import type * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { ApiRequestError, NETWORK_FAILED } from './api-request-error';

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls the BFF under `/api/v1` and parses the answer with the contracts schema `schema`, so a response the
 * screens do not understand fails here instead of deep inside a component. The session cookie is HttpOnly and
 * same-origin: the browser sends it, this code never sees it.
 */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  { method = 'GET', body, signal }: RequestOptions = {},
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiRequestError(0, NETWORK_FAILED, 'The server could not be reached.');
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ApiErrorSchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields } = parsed.data.error;
      throw new ApiRequestError(response.status, code, message, fields);
    }
    throw new ApiRequestError(response.status, 'INTERNAL', `Unexpected ${response.status} answer.`);
  }
  return schema.parse(payload);
}

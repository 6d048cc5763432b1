import type * as z from 'zod';
import { CONSOLE_REQUEST_HEADER } from '@funnel/contracts/console-request-header';
import { ApiRequestError, NETWORK_FAILED } from './api-request-error';
import { nextTask } from './next-task';

/**
 * A schema, or how to load it. The first screen's requests pass loaders (`lazySchema`): zod and the contracts'
 * schemas then come in a chunk of their own, fetched with the first answer, instead of with the screen's code
 * (docs/adr/0019-html-first-borrower-screens.md).
 */
export type SchemaSource<S extends z.ZodType> = S | (() => Promise<S>);

/** A schema loaded once, the first time an answer needs it. */
export function lazySchema<S extends z.ZodType>(load: () => Promise<S>): () => Promise<S> {
  let loaded: Promise<S> | undefined;
  return () => (loaded ??= load());
}

/**
 * A loader is called in a task of its own: the first request is made while React commits the hydrated page, and
 * asking for a chunk (Vite adds a `modulepreload` for each module it imports) is main-thread work that task need
 * not carry.
 */
const resolveSchema = <S extends z.ZodType>(source: SchemaSource<S>): Promise<S> =>
  typeof source === 'function' ? nextTask().then(source as () => Promise<S>) : Promise.resolve(source);

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
  source: SchemaSource<S>,
  { method = 'GET', body, signal }: RequestOptions = {},
): Promise<z.output<S>> {
  // Asked for at once, so a schema still loading and the answer travel together.
  const schema = resolveSchema(source);
  // Handled here too: a request that fails first never awaits it.
  schema.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      // The header proves a script of this origin made the request; the operator API refuses a state change
      // without it or a JSON body (docs/adr/0025).
      headers: {
        [CONSOLE_REQUEST_HEADER]: 'fetch',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
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
    const { ApiErrorSchema } = await import('@funnel/contracts/errors');
    const parsed = ApiErrorSchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields } = parsed.data.error;
      throw new ApiRequestError(response.status, code, message, fields);
    }
    throw new ApiRequestError(response.status, 'INTERNAL', `Unexpected ${response.status} answer.`);
  }
  return (await schema).parse(payload);
}

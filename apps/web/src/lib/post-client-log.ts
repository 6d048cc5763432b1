import type { ClientLog } from '@funnel/contracts/api';
import { ApiRequestError } from './api-request-error';

/**
 * POST /api/v1/logs — reports a failure the visitor saw to the operators. Fire and forget: a report that cannot be
 * delivered must never become a second error on screen. Only codes and statuses are sent, never what was typed.
 */
export function postClientLog(log: ClientLog): void {
  // The schema (zod) loads on the first report: the first screen does not carry it.
  void import('@funnel/contracts/api')
    .then(({ ClientLogSchema }) => {
      const body = ClientLogSchema.safeParse(log);
      if (!body.success) return;
      return fetch('/api/v1/logs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body.data),
        credentials: 'same-origin',
        keepalive: true,
      });
    })
    .catch(() => undefined);
}

/** Describes an error by its kind, status and code only, so no answer can leak into the report. */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.code} (HTTP ${error.status})`;
  return error instanceof Error ? error.name : 'unknown error';
}

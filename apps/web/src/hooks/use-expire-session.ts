import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiRequestError } from '@/lib/api-request-error';

/** True for the BFF's answer to a request without a live lead. */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === 'SESSION_EXPIRED';
}

/** The router state that makes the root layout show the session-expired screen in place of the route's own. */
const SESSION_EXPIRED_STATE = { sessionExpired: true } as const;

/** True when `state` (a location's) says the visitor's session ended on this screen. */
export function isSessionExpiredState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'sessionExpired' in state;
}

/**
 * Spec §8 with docs/product-rules.md §returning-visitors-and-sessions: without a live lead the visitor is told so in the page (never a browser alert), with
 * a Start over button. The address stays; the root layout shows the message instead of the screen.
 */
export function useExpireSession(): () => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(() => {
    void navigate(pathname, { replace: true, state: SESSION_EXPIRED_STATE });
  }, [navigate, pathname]);
}

import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { SESSION_EXPIRED } from '@funnel/contracts/messages';
import { ApiRequestError } from '@/lib/api-request-error';

/** True for the BFF's answer to a request without a live lead. */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === 'SESSION_EXPIRED';
}

/** Spec §8: without a live lead the visitor is told so, then starts over on the landing screen. */
export function useExpireSession(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    window.alert(SESSION_EXPIRED);
    void navigate('/start', { replace: true });
  }, [navigate]);
}

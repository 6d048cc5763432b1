import type { StepName } from '@funnel/contracts/steps';

/**
 * What a funnel route tells the funnel layout: the wizard step it shows, or that the wizard is finished
 * (the consent screen after the last step).
 */
export type FunnelRouteHandle = { step: StepName } | { finished: true };

export function isFunnelRouteHandle(handle: unknown): handle is FunnelRouteHandle {
  return typeof handle === 'object' && handle !== null && ('step' in handle || 'finished' in handle);
}

import { useMemo } from 'react';
import { businessToday } from '@/lib/business-today';
import { usePublicConfig } from '@/lib/public-config';

/**
 * Today in the business time zone, once the configuration that names the zone has been read (or could not be);
 * `undefined` before. The prerendered page and the render that hydrates it are both drawn before, so neither
 * shows a date of the day the app was built: date controls fill in right after (docs/adr/0019).
 */
export function useBusinessToday(): string | undefined {
  const known = !usePublicConfig().isPending;
  return useMemo(() => (known ? businessToday() : undefined), [known]);
}

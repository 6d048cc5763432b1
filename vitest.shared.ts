import { defaultClientConditions, defaultServerConditions } from 'vite';
import type { UserConfig } from 'vite';

/**
 * Workspace packages export TypeScript source under the `source` condition; tests compile them directly
 * instead of needing a build first.
 */
export const sourceResolution: Pick<UserConfig, 'resolve' | 'ssr'> = {
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions], externalConditions: ['source'] } },
};

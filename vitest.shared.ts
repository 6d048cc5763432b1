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

/**
 * `sourceResolution` for server code that loads prom-client: without the `module` condition, because Node itself
 * loads external packages with these, and under `module` prom-client's @opentelemetry/api import would load an
 * ESM build Node cannot resolve.
 */
export const serverSourceResolution: Pick<UserConfig, 'resolve' | 'ssr'> = {
  ...sourceResolution,
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')],
      externalConditions: ['source'],
    },
  },
};

/**
 * How long a test or hook may run before it counts as hung: a bound, never a speed check (speed is measured in
 * bench/). CI runs vitest beside the browser tests, the build and the compose test on two cores, where a test that
 * takes a second alone can take ten; vitest's 5 s default then fails tests that would pass.
 */
export const hungTestBounds = { testTimeout: 60_000, hookTimeout: 60_000 } as const;

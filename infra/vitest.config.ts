import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { sourceResolution } from '../vitest.shared.js';

/** Checks of the operator's infra files (dashboards, alert rules) against what the apps export. */
export default defineConfig({
  ...sourceResolution,
  // As in apps/bff and apps/worker: prom-client's @opentelemetry/api import fails under the `module` condition.
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')],
      externalConditions: ['source'],
    },
  },
  test: { name: 'infra', include: ['test/**/*.test.ts'] },
});

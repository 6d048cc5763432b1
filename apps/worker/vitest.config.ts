import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...sourceResolution,
  // Without the `module` condition: Node itself loads external packages with these, and under `module`
  // prom-client's @opentelemetry/api import would load an ESM build Node cannot resolve.
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')],
      externalConditions: ['source'],
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: [fileURLToPath(import.meta.resolve('@funnel/testing/services-global-setup'))],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

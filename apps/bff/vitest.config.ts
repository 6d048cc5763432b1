import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...sourceResolution,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    globalSetup: [fileURLToPath(import.meta.resolve('@funnel/testing/redis-global-setup'))],
    env: {
      REFERENCE_DATA_DIR:
        process.env.REFERENCE_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data', import.meta.url)),
    },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

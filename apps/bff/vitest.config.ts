import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { hungTestBounds, serverSourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...serverSourceResolution,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    globalSetup: [fileURLToPath(import.meta.resolve('@funnel/testing/services-global-setup'))],
    env: {
      REFERENCE_DATA_DIR:
        process.env.REFERENCE_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data', import.meta.url)),
    },
    ...hungTestBounds,
  },
});

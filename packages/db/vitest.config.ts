import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { hungTestBounds, sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...sourceResolution,
  test: {
    ...hungTestBounds,
    include: ['src/**/*.test.ts'],
    globalSetup: [fileURLToPath(import.meta.resolve('@funnel/testing/services-global-setup'))],
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...sourceResolution,
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: [fileURLToPath(import.meta.resolve('@funnel/testing/services-global-setup'))],
  },
});

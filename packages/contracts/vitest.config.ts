import { defineConfig } from 'vitest/config';
import { hungTestBounds, sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...sourceResolution,
  test: {
    ...hungTestBounds,
    include: ['src/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**'],
  },
});

import { defineConfig } from 'vitest/config';
import { hungTestBounds, sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  // `resolve.conditions: ['source']` alone does not reach Node-side imports; the shared setting also sets ssr.
  ...sourceResolution,
  test: {
    ...hungTestBounds,
    include: ['src/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
  },
});

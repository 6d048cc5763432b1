import { defineConfig } from 'vitest/config';
import { hungTestBounds, sourceResolution } from '../../vitest.shared.js';

/** The harness's own tests (the helpers every other suite leans on). */
export default defineConfig({
  ...sourceResolution,
  test: {
    ...hungTestBounds,
    include: ['src/**/*.test.ts'],
  },
});

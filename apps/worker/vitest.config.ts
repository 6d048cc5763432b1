import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { hungTestBounds, serverSourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...serverSourceResolution,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: [fileURLToPath(import.meta.resolve('@funnel/testing/services-global-setup'))],
    ...hungTestBounds,
  },
});

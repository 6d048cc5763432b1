import { defineConfig } from 'vitest/config';
import { hungTestBounds, serverSourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  // tracing.ts loads @opentelemetry/api, whose ESM build Node cannot resolve (see vitest.shared.ts).
  ...serverSourceResolution,
  test: { ...hungTestBounds, include: ['src/**/*.test.ts'] },
});

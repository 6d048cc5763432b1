import { defineConfig } from 'vitest/config';
import { serverSourceResolution } from '../vitest.shared.js';

/** Checks of the operator's infra files (dashboards, alert rules) against what the apps export. */
export default defineConfig({
  ...serverSourceResolution,
  test: { name: 'infra', include: ['test/**/*.test.ts'] },
});

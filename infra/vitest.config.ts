import { defineConfig } from 'vitest/config';
import { hungTestBounds, serverSourceResolution } from '../vitest.shared.js';

/** Checks of the operator's infra files (dashboards, alert rules) against what the apps export. */
export default defineConfig({
  ...serverSourceResolution,
  test: { ...hungTestBounds, name: 'infra', include: ['test/**/*.test.ts'] },
});

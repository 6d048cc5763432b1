import { defineConfig } from 'vitest/config';
import { sourceResolution } from './vitest.shared.js';

/**
 * One vitest run over every workspace; each project keeps its own config (resolve conditions, timeouts). The
 * service setup runs here once for the whole run; the projects that need Redis or PostgreSQL list it too (for a
 * run from their own folder) and share the one instance.
 */
export default defineConfig({
  ...sourceResolution,
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'infra/vitest.config.ts',
      'scripts/vitest.config.ts',
    ],
    globalSetup: ['packages/testing/src/services-global-setup.ts'],
  },
});

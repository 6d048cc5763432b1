import { defineConfig } from 'vitest/config';

/** One vitest run over every workspace; each project keeps its own config (Redis setup, resolve conditions). */
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
  },
});

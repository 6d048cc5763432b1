import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { hungTestBounds, sourceResolution } from '../../vitest.shared.js';

export default defineConfig({
  ...sourceResolution,
  resolve: {
    ...sourceResolution.resolve,
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    ...hungTestBounds,
    include: ['src/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
  },
});

import { defineConfig } from 'vitest/config';

/** The tests of the root scripts (npm start's pieces). */
export default defineConfig({
  test: {
    name: 'scripts',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
  },
});

import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from './eslint-rules/boundaries.js';
import testClocks from './eslint-rules/test-clocks.js';

// typescript-eslint parses with TypeScript's JavaScript API, which TypeScript 7 (the native compiler that type-checks
// the repo) does not ship: the root `typescript` package stays on 6.0 for the linter (docs/dependencies.md).
export default defineConfig(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '.data/**', 'screenshots/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Type-aware rules, on every workspace's TypeScript (each file belongs to its workspace's tsconfig.json): a
    // promise nobody awaits is a job, a write or a reply that can fail unseen. node:test's test() and describe()
    // report their own failures, so their returned promises may float.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
          message:
            "Import zod as `import * as z from 'zod'` in browser code (named import pulls every locale).",
        },
      ],
    },
  },
  {
    files: ['**/scripts/**', '**/e2e/**', '**/bench/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },

  // Timing never goes into the tests (docs/adr/0028): no assertion compares an elapsed time with a threshold.
  {
    files: ['**/*.test.{ts,tsx}', '**/e2e/**/*.ts', '**/test/**/*.ts'],
    plugins: { 'test-clocks': testClocks },
    rules: { 'test-clocks/no-elapsed-time-assertions': 'error' },
  },

  // ── Boundaries docs/conventions.md states, checked by machine (issue 24). Kept as one block for easy merging. ──
  // Config comes from each app's env.ts (docs/conventions.md, rule 6): nothing else reads process.env.
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs,mts,cts}'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            "Read configuration in the app's env.ts (parsed once with zod) and pass it in; see docs/conventions.md, rule 6.",
        },
      ],
      'no-restricted-imports': [
        'error',
        ...['process', 'node:process'].map((name) => ({
          name,
          importNames: ['env'],
          message:
            "Read configuration in the app's env.ts (parsed once with zod) and pass it in; see docs/conventions.md, rule 6.",
        })),
      ],
    },
  },
  {
    // Where reading process.env is the point:
    files: [
      '**/env.ts', // each app's and package's one parser of the environment
      'scripts/**', // command-line tools: they build the environment the apps they start read
      '.ci/**', // the CI driver, likewise
      'bench/**', // benchmarks start apps as processes and hand them their environment
      '**/e2e/**', // browser tests start the built apps the same way
      '**/test/**', // integration tests read the services vitest's global setup found (REDIS_URL, …)
      '**/*.test.{ts,tsx}', // unit tests beside the code, likewise (REFERENCE_DATA_DIR)
      'packages/testing/**', // that global setup itself, which finds the services and publishes them in env
      '**/*.config.{ts,js,mjs}', // tool configs (vitest, vite) run inside the tool, never in an app
    ],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-imports': 'off' },
  },
  // Apps never import each other, nor does a package import an app (docs/conventions.md, rule 2).
  {
    files: ['apps/**/*.{ts,tsx,js,mjs}', 'packages/**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-app-imports': 'error' },
  },
  // One web feature never imports another (docs/conventions.md, "In the web app"): shared code lives above features/.
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-feature-imports': 'error' },
  },
);

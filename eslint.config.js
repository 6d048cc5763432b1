import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
);

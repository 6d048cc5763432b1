import type { KnipConfig } from 'knip';

/**
 * knip: files, exports and dependencies nothing uses (`npx knip`, a step of `npm test` after lint).
 * Entry points are globs, not file names, so moving files inside a workspace needs no change here. Every
 * ignore entry says why it is not a finding.
 *
 * `npm run knip` passes `--tsConfig tsconfig.build.json`: those files name outDir dist and rootDir src, so knip maps
 * an import that resolves into a package's dist/ (knip does not use the `source` condition, and a build or
 * `npm start` leaves dist/ there) back to the package's src/. With tsconfig.json alone every export of a built
 * package would look unused.
 */
const config: KnipConfig = {
  // An export its own file uses too is not reported: docs/conventions.md's web API files export the fetcher beside the
  // react-query hook that calls it, and env.ts files export the schema loadEnv parses. Exports nothing uses at
  // all are still reported.
  ignoreExportsUsedInFile: true,
  // System programs the scripts and tests start, installed by apt (README, "Test it"), not by npm.
  ignoreBinaries: ['redis-server', 'openssl', 'taskset', 'dockerd', 'umount'],
  // Type declarations TypeScript reads beside the .mjs script of the same name (scripts/*.mjs imported from .ts).
  ignore: ['scripts/*.d.mts'],
  workspaces: {
    '.': {
      // The command-line tools `npm run …` and CI start, and the local ESLint rules eslint.config.js loads.
      entry: ['scripts/**/*.{mjs,ts}', 'eslint-rules/*.js'],
      // apps/bff/test/openapi-lint.int.test.ts runs node_modules/.bin/redocly by path, which knip cannot follow.
      ignoreDependencies: ['@redocly/cli'],
      project: ['scripts/**/*.{mjs,mts,ts}', 'eslint-rules/*.js', 'infra/**/*.ts'],
    },
    'apps/*': {
      // Each server's process entry (package.json `main` names the built file in dist/, which knip cannot map).
      entry: ['src/{server,main}.ts'],
      project: ['{src,test}/**/*.{ts,tsx}'],
    },
    'apps/bff': {
      project: ['{src,test}/**/*.ts'],
      // test/api-contract.int.test.ts runs node_modules/.bin/openapi-typescript by path, which knip cannot follow.
      ignoreDependencies: ['openapi-typescript'],
    },
    'apps/web': {
      // The browser tests (node --test), the build's helper scripts (package.json "build"), and the prerender's
      // entry (`vite build --ssr src/entry-prerender.tsx`, loaded by scripts/prerender.mjs from its build output).
      entry: ['e2e/**/*.e2e.ts', 'scripts/*.mjs', 'src/entry-prerender.tsx'],
      project: ['src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'scripts/*.mjs'],
      // e2e/page-checks.ts reads axe-core's file through require.resolve and injects it into the page.
      ignoreDependencies: ['axe-core'],
    },
    bench: {
      // Every benchmark is a script scripts/bench.mjs starts by its file name, and so is each bare baseline.
      entry: ['*.ts', 'baselines/*.ts'],
      project: ['**/*.ts'],
    },
    'packages/*': {
      project: ['src/**/*.ts'],
      // The packages' package.json exports every src file ("./*"), so knip takes each as an entry; they are
      // private and all their consumers are in this repository, so an export no workspace imports is dead.
      includeEntryExports: true,
    },
    'packages/contracts': {
      project: ['src/**/*.ts'],
      includeEntryExports: true,
      // docs/conventions.md, rule 3: each schema exports its type (`type Xxx = z.infer<typeof XxxSchema>`) beside it,
      // as part of the contract, whether or not a consumer names the type yet.
      ignoreIssues: { 'src/**/*.ts': ['types'] },
    },
  },
};

export default config;

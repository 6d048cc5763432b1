/**
 * Import rules a machine checks (`npm run arch:check`). The worker's folders are layered: a submission walks the
 * waterfall (after screening the lead), the waterfall asks the buyers, and nothing points back up; the other
 * concepts (screening, final outcome, follow-ups, reconciler, system of record) stand alone, and only the composition root (`build-worker.ts`,
 * `main.ts`) and the shared files beside it (`env.ts`, `metrics.ts`, `scheduled-pass.ts`) see them all.
 */
const WORKER = '^apps/worker/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: two modules that cannot be read, tested or moved one without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'worker-no-import-of-the-root',
      severity: 'error',
      comment: 'A concept folder of the worker imports the composition root or a file beside it.',
      from: { path: `${WORKER}[^/]+/` },
      to: { path: `${WORKER}[^/]+\\.ts$` },
    },
    {
      name: 'worker-buyers-are-the-bottom',
      severity: 'error',
      comment: 'buyers/ imports another worker folder (the waterfall and the submission sit above it).',
      from: { path: `${WORKER}buyers/` },
      to: { path: `${WORKER}[^/]+/`, pathNot: `${WORKER}buyers/` },
    },
    {
      name: 'worker-waterfall-uses-only-buyers',
      severity: 'error',
      comment: 'waterfall/ imports a worker folder other than buyers/ (e.g. submission/, above it).',
      from: { path: `${WORKER}waterfall/` },
      to: { path: `${WORKER}[^/]+/`, pathNot: `${WORKER}(waterfall|buyers)/` },
    },
    {
      name: 'worker-submission-uses-waterfall-and-buyers',
      severity: 'error',
      comment: 'submission/ imports a worker folder other than screening/, waterfall/ and buyers/.',
      from: { path: `${WORKER}submission/` },
      to: { path: `${WORKER}[^/]+/`, pathNot: `${WORKER}(submission|screening|waterfall|buyers)/` },
    },
    {
      name: 'worker-side-concepts-stand-alone',
      severity: 'error',
      comment:
        'screening/, final-outcome/, follow-ups/, reconciler/ and system-of-record/ import no other worker folder.',
      from: { path: `${WORKER}(screening|final-outcome|follow-ups|reconciler|system-of-record)/` },
      to: { path: `${WORKER}[^/]+/`, pathNot: `${WORKER}$1/` },
    },
    {
      name: 'no-app-to-app',
      severity: 'error',
      comment: 'An app imports another app: what they share belongs in a package.',
      from: { path: '^apps/([^/]+)/src/' },
      to: { path: '^apps/[^/]+/', pathNot: '^apps/$1/' },
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      // Workspace packages by their `source` export condition (the TypeScript file, as in development).
      conditionNames: ['source', 'import', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.js', '.tsx'],
    },
  },
};

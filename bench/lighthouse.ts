// Lighthouse (mobile, its default simulated throttling) on Debian's Chromium: /start, and /lgname with a
// session cookie, against a static HTML page with one form served by the same BFF (a copy of the built web app
// with that page added). Figures: median performance and accessibility scores, LCP, TBT and CLS over 5 runs,
// interleaved. `BENCH_LIGHTHOUSE_DIR=<dir>` keeps every run's full report there (JSON), to read what costs the
// score: the LCP element and its phases, render-blocking requests, long tasks, unused JavaScript.
// `BENCH_LIGHTHOUSE_COMPARE=<dist>` also measures /start and /lgname of another build of the web app (another
// commit's apps/web/dist) in the same runs, interleaved, served by a BFF of its own: an A/B on a shared machine,
// where figures of separate runs differ more than most changes do.
// Chromium runs on every core (the BFF stays pinned to its own): Lighthouse's simulation multiplies each observed
// main-thread task by 4, and a browser squeezed onto the one core scripts/bench.mjs pins a benchmark to (browser,
// network and renderer processes, V8's compile and GC threads together) made its tasks 2–3× their thread time.
// BENCH_SABOTAGE=lighthouse measures a bad build: the app's pages (not the one-form page) load a 1 MB classic
// script in <head> that blocks their first paint and, after load, holds the main thread for 250 ms
// (lib/sabotage/render-blocking-script.ts). Performance, LCP and TBT must fail on /start and /lgname.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { sabotaged, smoke } from './lib/bench-options.js';
import { createLeadSession } from './lib/funnel-client.js';
import { REPO_ROOT, onEveryCpu, withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { addRenderBlockingScript } from './lib/sabotage/render-blocking-script.js';
import { threadTimeTbt } from './lib/thread-time-tbt.js';
import { benchSecrets, startBff, startRedis } from './lib/services.js';
import { median } from './lib/stats.js';
import { chromiumPath } from '../scripts/chromium.mjs';

const RUNS = smoke ? 1 : 5;
const CHROMIUM = chromiumPath();
const BASELINE_PAGE = 'bench-one-form.html';
const REPORT_DIR = process.env.BENCH_LIGHTHOUSE_DIR;
const COMPARE_DIST = process.env.BENCH_LIGHTHOUSE_COMPARE;
/** The issue 26 goals besides the scores and the LCP ratio. */
const TBT_GOAL_MS = 150;
const CLS_GOAL = 0.05;

interface Run {
  performance: number;
  accessibility: number;
  lcp: number;
  tbt: number;
  /** TBT from the trace's thread time (lib/thread-time-tbt.ts): less swayed by other load on the machine. */
  threadTbt: number;
  cls: number;
}

if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true });
let reportCount = 0;

const webCopy = mkdtempSync(path.join(tmpdir(), 'bench-web-'));
cpSync(path.join(REPO_ROOT, 'apps/web/dist'), webCopy, { recursive: true });
if (sabotaged('lighthouse')) addRenderBlockingScript(webCopy);
cpSync(path.join(REPO_ROOT, 'bench/baselines/one-form.html'), path.join(webCopy, BASELINE_PAGE));
const compareCopy = COMPARE_DIST ? mkdtempSync(path.join(tmpdir(), 'bench-web-compare-')) : undefined;
if (COMPARE_DIST && compareCopy) cpSync(COMPARE_DIST, compareCopy, { recursive: true });

/**
 * Chromium, started on every CPU (see the top of this file) through a two-line wrapper in `dir` when taskset
 * exists.
 */
function chromiumOnEveryCpu(dir: string): string {
  const prefix = onEveryCpu();
  if (prefix.length === 0) return CHROMIUM;
  const wrapper = path.join(dir, 'chromium');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${[...prefix, CHROMIUM].join(' ')} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

const wrapperDir = mkdtempSync(path.join(tmpdir(), 'bench-chromium-'));
const chrome = await launch({
  chromePath: chromiumOnEveryCpu(wrapperDir),
  chromeFlags: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  await withServices(async (track) => {
    const redis = track(await startRedis());
    const bff = track(
      await startBff({ redisUrl: redis.url, secrets: benchSecrets(), env: { WEB_DIST_DIR: webCopy } }),
    );
    const cookie = await createLeadSession(bff.url);
    const compareBff = compareCopy
      ? track(
          await startBff({
            redisUrl: redis.url,
            secrets: benchSecrets(),
            env: { WEB_DIST_DIR: compareCopy },
          }),
        )
      : undefined;
    const compareCookie = compareBff ? await createLeadSession(compareBff.url) : undefined;

    const audit = async (
      pagePath: string,
      headers?: Record<string, string>,
      origin = bff.url,
    ): Promise<Run> => {
      const result = await lighthouse(
        `${origin}${pagePath}`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        },
        headers ? { extends: 'lighthouse:default', settings: { extraHeaders: headers } } : undefined,
      );
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`Lighthouse returned nothing for ${pagePath}`);
      if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
      if (REPORT_DIR) {
        reportCount += 1;
        const build = origin === bff.url ? '' : '-compare';
        const name = `${String(reportCount).padStart(2, '0')}${build}${pagePath.replace(/[^a-z0-9]+/gi, '-')}.json`;
        writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(lhr));
      }
      return {
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
        tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
        threadTbt: threadTimeTbt(
          (result.artifacts as { Trace?: { traceEvents: Parameters<typeof threadTimeTbt>[0] } }).Trace
            ?.traceEvents ?? [],
        ),
        cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      };
    };

    const pages: Record<string, () => Promise<Run>> = {
      '/start': () => audit('/start'),
      '/lgname': () => audit('/lgname', { Cookie: cookie }),
      baseline: () => audit(`/${BASELINE_PAGE}`),
    };
    if (compareBff && compareCookie) {
      pages['/start (compared build)'] = () => audit('/start', undefined, compareBff.url);
      pages['/lgname (compared build)'] = () => audit('/lgname', { Cookie: compareCookie }, compareBff.url);
    }
    const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(pages).map((name) => [name, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const [name, run] of Object.entries(pages)) runs[name]?.push(await run());
    }
    const baselineRuns = runs.baseline ?? [];
    const baselineLcp = median(baselineRuns.map((r) => r.lcp));
    for (const page of Object.keys(pages).filter((name) => name !== 'baseline')) {
      const pageRuns = runs[page] ?? [];
      const performance = median(pageRuns.map((r) => r.performance));
      const accessibility = median(pageRuns.map((r) => r.accessibility));
      const lcp = median(pageRuns.map((r) => r.lcp));
      const tbt = median(pageRuns.map((r) => r.tbt));
      const threadTbt = median(pageRuns.map((r) => r.threadTbt));
      const cls = median(pageRuns.map((r) => r.cls));
      report({
        measure: `Lighthouse mobile ${page}, median of ${RUNS}`,
        product: `perf ${performance}, a11y ${accessibility}, LCP ${fmt.ms(lcp)}, TBT ${fmt.ms(tbt)} (from thread time ${fmt.ms(threadTbt)}), CLS ${cls.toFixed(3)}`,
        baseline: `perf ${median(baselineRuns.map((r) => r.performance))}, LCP ${fmt.ms(baselineLcp)}, TBT ${fmt.ms(median(baselineRuns.map((r) => r.tbt)))} (one-form page)`,
        ratio: `LCP ${fmt.ratio(lcp / baselineLcp)}`,
        goals: [
          { of: 'perf', measured: performance, op: '>=', limit: 95 },
          { of: 'a11y', measured: accessibility, op: '>=', limit: 100 },
          { of: 'LCP', measured: lcp / baselineLcp, op: '<=', limit: 1.5, unit: '×' },
          { of: 'TBT', measured: tbt, op: '<=', limit: TBT_GOAL_MS, unit: ' ms' },
          { of: 'CLS', measured: cls, op: '<=', limit: CLS_GOAL },
        ],
      });
    }
  });
} finally {
  chrome.kill();
  rmSync(webCopy, { recursive: true, force: true });
  rmSync(wrapperDir, { recursive: true, force: true });
  if (compareCopy) rmSync(compareCopy, { recursive: true, force: true });
}

// Lighthouse 12 (mobile, its default simulated throttling) on Debian's Chromium: /start, and /lgname with a
// session cookie, against a static HTML page with one form served by the same BFF (a copy of the built web app
// with that page added). Figures: median performance and accessibility scores and LCP over 5 runs, interleaved.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { smoke } from './lib/bench-options.js';
import { createLeadSession } from './lib/funnel-client.js';
import { REPO_ROOT, withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { benchSecrets, startBff, startRedis } from './lib/services.js';
import { median } from './lib/stats.js';
import { chromiumPath } from '../scripts/chromium.mjs';

const RUNS = smoke ? 1 : 5;
const CHROMIUM = chromiumPath();
const BASELINE_PAGE = 'bench-one-form.html';

interface Run {
  performance: number;
  accessibility: number;
  lcp: number;
}

const webCopy = mkdtempSync(path.join(tmpdir(), 'bench-web-'));
cpSync(path.join(REPO_ROOT, 'apps/web/dist'), webCopy, { recursive: true });
cpSync(path.join(REPO_ROOT, 'bench/baselines/one-form.html'), path.join(webCopy, BASELINE_PAGE));

const chrome = await launch({
  chromePath: CHROMIUM,
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

    const audit = async (pagePath: string, headers?: Record<string, string>): Promise<Run> => {
      const result = await lighthouse(
        `${bff.url}${pagePath}`,
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
      return {
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      };
    };

    const pages = {
      '/start': () => audit('/start'),
      '/lgname': () => audit('/lgname', { Cookie: cookie }),
      baseline: () => audit(`/${BASELINE_PAGE}`),
    };
    const runs: Record<keyof typeof pages, Run[]> = { '/start': [], '/lgname': [], baseline: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const [name, run] of Object.entries(pages)) runs[name as keyof typeof pages].push(await run());
    }
    const baselineLcp = median(runs.baseline.map((r) => r.lcp));
    for (const page of ['/start', '/lgname'] as const) {
      const performance = median(runs[page].map((r) => r.performance));
      const accessibility = median(runs[page].map((r) => r.accessibility));
      const lcp = median(runs[page].map((r) => r.lcp));
      report({
        measure: `Lighthouse mobile ${page}, median of ${RUNS}`,
        product: `perf ${performance}, a11y ${accessibility}, LCP ${fmt.ms(lcp)}`,
        baseline: `perf ${median(runs.baseline.map((r) => r.performance))}, LCP ${fmt.ms(baselineLcp)} (one-form page)`,
        ratio: `LCP ${fmt.ratio(lcp / baselineLcp)}`,
        goal: 'perf ≥ 95, a11y 100, LCP ≤ 1.5×',
        pass: performance >= 95 && accessibility === 100 && lcp / baselineLcp <= 1.5,
      });
    }
  });
} finally {
  chrome.kill();
  rmSync(webCopy, { recursive: true, force: true });
}

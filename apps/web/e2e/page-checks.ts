// Checks every browser test applies to the screens it visits: accessibility with axe-core, screenshots at the
// two widths the design targets, and no uncaught script errors; and the one way the tests open a page, waiting
// until the app has taken it over.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from './harness';

const SCREENSHOT_DIR = path.join(repoRoot, 'screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [375, 1280] as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core on the page as it is now; fails on any serious or critical violation, naming the elements. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol rather than added as a <script>: the BFF's Content-Security-Policy
  // (script-src 'self') rightly refuses inline scripts, and the tests keep that policy on.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }
    ).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: AxeViolation[];
    };
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
  const blocking = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  assert.deepEqual(
    blocking.map(
      (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    ),
    [],
    `axe found serious or critical violations on ${screen}`,
  );
}

/**
 * At 375 px and at 1280 px: axe finds nothing serious, and the page is no wider than the screen (else the
 * deepest elements reaching past its edge are named).
 */
export async function checkBothWidths(page: Page, screen: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `${screen} at ${width} px`);
    const overflow = await page.evaluate(() => ({
      by: document.documentElement.scrollWidth - window.innerWidth,
      culprits: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.children.length === 0)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').slice(0, 40)}"`),
    }));
    assert.ok(
      overflow.by <= 0,
      `${screen}: the page is ${overflow.by} px wider than ${width} px (${overflow.culprits.join(', ')})`,
    );
  }
}

/** Saves full-page screenshots of the page at 375 px and 1280 px wide, then restores the width. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // Lets layout settle and the progress bar finish its one-second animation.
    await page.waitForTimeout(1100);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/** Saves screenshots of one part of the page (a table, a panel) at 375 px and 1280 px wide, then restores the width. */
export async function screenshotPartBothWidths(page: Page, part: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(1100);
    await part.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`) });
  }
  if (original) await page.setViewportSize(original);
}

/** Collects uncaught errors of a page, to assert at the end that none happened. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * Waits until the app has taken over the page (`<html data-hydrated>`, docs/adr/0019-html-first-borrower-screens.md)
 * and a step's form holds the saved answers (it is `aria-busy` until the lead has arrived). Every borrower screen
 * arrives as HTML that shows its fields before the app's code has run and before the lead is read; what is typed
 * then is given to the app once it hydrates, but a test that types, reads back a saved answer or a default, or
 * presses a button meanwhile races that hand-over. Only the tests of typing before hydration (html-first.e2e.ts)
 * go without it.
 */
export async function appTookOver(page: Page): Promise<void> {
  // The app's code is fetched once the page is painted: with every CI stage sharing two cores, that has taken more
  // than the 20 s a step is usually given, and once more than 45 s.
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 90_000 });
  await page.locator('form[aria-busy="true"]').waitFor({ state: 'detached' });
}

/** Loads `path` as a new document, as a visitor arriving does, and waits until the app has it (`appTookOver`). */
export async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await appTookOver(page);
}

/** Reloads the page and waits until the app has it again (`appTookOver`). */
export async function reloadScreen(page: Page): Promise<void> {
  await page.reload();
  await appTookOver(page);
}

/** At 375 and 1280 px: axe finds no violation, and the page is no wider than the window. */
export async function assertFitsBothWidths(page: Page, screen: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `${screen} at ${width} px`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${screen}: the page is ${overflow} px wider than ${width} px`);
  }
}

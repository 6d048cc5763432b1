// The header's popups and menu (spec §2): each popup opens from its link and closes on its close button, a click
// outside and Esc, keeps focus inside while open and gives it back; How it works scrolls on the landing page;
// the menu toggle works at 375 px.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { BRAND } from '../src/config/brand';
import { repoRoot, startHarness, type Harness } from './harness';
import { assertAccessible, screenshotBothWidths } from './page-checks';
import { openPage } from './site-driver';

let harness: Harness;
/** The deployment's configured links (BRAND_BLOG_URL, BRAND_SOCIAL_LINKS): only these show. */
const BLOG_URL = 'https://blog.loanbridge-test.com/';
const LINKEDIN_URL = 'https://www.linkedin.com/company/loanbridge-test';

before(async () => {
  harness = await startHarness({
    label: 'site-frame',
    bffEnv: { BRAND_BLOG_URL: BLOG_URL, BRAND_SOCIAL_LINKS: `linkedin=${LINKEDIN_URL}` },
  });
});

after(async () => {
  await harness?.close();
});

const POPUPS = [
  { link: 'How it works', dialog: 'How it works', content: 'Submit your information', shot: 'how-it-works' },
  { link: 'Rates & Fees', dialog: 'Rates & Fees', content: '$219.79', shot: 'rates-and-fees' },
  { link: 'FAQs', dialog: 'Frequently asked questions', content: 'How much can I borrow?', shot: 'faqs' },
] as const;

type Closer = 'close button' | 'outside click' | 'Esc';
const CLOSERS: readonly Closer[] = ['close button', 'outside click', 'Esc'];

function mainNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

async function activeText(page: Page): Promise<string | null | undefined> {
  return page.evaluate(() => document.activeElement?.textContent);
}

async function focusIsInDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.closest('dialog[open]') != null);
}

async function close(page: Page, dialog: Locator, closer: Closer): Promise<void> {
  if (closer === 'close button')
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  // The top-left corner is backdrop at either width: the dialog is centred and narrower than the viewport.
  else if (closer === 'outside click') await page.mouse.click(4, 4);
  else await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

for (const popup of POPUPS) {
  test(`the ${popup.link} popup opens and closes by its close button, an outside click and Esc`, async () => {
    // Away from the landing page, How it works is a popup too.
    const { context, page, errors } = await openPage(harness, '/terms-of-use');
    const opener = mainNav(page).getByRole('button', { name: popup.link, exact: true });
    const dialog = page.getByRole('dialog', { name: popup.dialog, exact: true });
    for (const closer of CLOSERS) {
      await opener.click();
      await dialog.waitFor();
      await dialog.getByText(popup.content, { exact: false }).first().waitFor();
      assert.ok(await focusIsInDialog(page), 'focus moves into the popup');
      if (closer === 'close button') {
        // Tab and Shift+Tab cycle inside the popup: more presses than it has controls.
        for (const key of ['Tab', 'Shift+Tab']) {
          for (let i = 0; i < 20; i += 1) {
            await page.keyboard.press(key);
            assert.ok(await focusIsInDialog(page), `${key} keeps focus in the popup`);
          }
        }
        await assertAccessible(page, `${popup.link} popup`);
        await screenshotBothWidths(page, `site-popup-${popup.shot}`);
      }
      await close(page, dialog, closer);
      assert.equal(await activeText(page), popup.link, `after the ${closer}, focus is back on the link`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a link inside a popup navigates and closes it', async () => {
  const { context, page } = await openPage(harness, '/disclaimer');
  await mainNav(page).getByRole('button', { name: 'FAQs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Frequently asked questions' });
  await dialog.getByRole('link', { name: 'Contact us' }).click();
  await page.waitForURL('**/contact-us');
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('heading', { level: 1, name: 'Contact Us' }).waitFor();
  await context.close();
});

test('on the landing page How it works scrolls to its section instead of opening a popup', async () => {
  const { context, page } = await openPage(harness, '/start');
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await mainNav(page).getByRole('button', { name: 'How it works' }).click();
  await page.waitForFunction(() => {
    const top = document.getElementById('how-it-works')?.getBoundingClientRect().top ?? 999;
    return Math.abs(top) < 16;
  });
  assert.ok((await page.evaluate(() => window.scrollY)) > 200, 'the page scrolled');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'how-it-works', 'focus follows');
  assert.equal(await page.getByRole('dialog').count(), 0, 'no popup');
  await context.close();
});

test('the menu toggle works at 375 px, and Blog shows on wide screens only', async () => {
  const { context, page, errors } = await openPage(harness, '/privacy', 375);
  const toggle = page.getByRole('button', { name: 'Menu' });
  const faqs = mainNav(page).getByRole('button', { name: 'FAQs' });
  const blog = page.getByRole('link', { name: 'Blog (opens in a new tab)' });
  assert.equal(await faqs.isVisible(), false, 'the menu starts closed');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  for (const name of ['How it works', 'Rates & Fees', 'FAQs']) {
    assert.ok(await mainNav(page).getByRole('button', { name, exact: true }).isVisible(), `${name} shows`);
  }
  assert.equal(await blog.isVisible(), false, 'no Blog link on a phone');
  await assertAccessible(page, 'open menu at 375 px');
  await page.screenshot({ path: path.join(repoRoot, 'screenshots', 'site-menu-open-375.png') });

  await page.keyboard.press('Escape');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'Esc closes the menu');
  assert.equal(await activeText(page), 'Menu', 'and gives focus back to the toggle');

  await toggle.click();
  // Below the open menu, on the page's own content.
  await page.mouse.click(187, 850);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a click outside closes the menu');

  await toggle.click();
  await faqs.click();
  const dialog = page.getByRole('dialog', { name: 'Frequently asked questions' });
  await dialog.waitFor();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'choosing a popup closes the menu');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await activeText(page), 'Menu', 'focus returns to the toggle, the item being hidden');

  await page.setViewportSize({ width: 1280, height: 900 });
  assert.equal(await toggle.isVisible(), false, 'no toggle on a wide screen');
  assert.ok(await faqs.isVisible());
  assert.ok(await blog.isVisible(), 'Blog shows on a wide screen');
  assert.equal(await blog.getAttribute('href'), BLOG_URL);
  assert.equal(await blog.getAttribute('target'), '_blank');
  // The one configured social profile, and no other.
  const social = page
    .getByRole('contentinfo')
    .getByRole('list', { name: `${BRAND.name} on social media` })
    .getByRole('link');
  assert.equal(await social.count(), 1);
  assert.equal(await social.first().getAttribute('href'), LINKEDIN_URL);
  assert.equal(await social.first().getAttribute('target'), '_blank');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 375 px the menu reaches the landing page section too', async () => {
  const { context, page } = await openPage(harness, '/start', 375);
  await page.getByRole('button', { name: 'Menu' }).click();
  await mainNav(page).getByRole('button', { name: 'How it works' }).click();
  await page.waitForFunction(() => {
    const top = document.getElementById('how-it-works')?.getBoundingClientRect().top ?? 999;
    return Math.abs(top) < 16;
  });
  assert.equal(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded'), 'false');
  await context.close();
});

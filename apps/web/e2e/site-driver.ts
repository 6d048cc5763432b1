// Opens the site's pages the way a visitor does, and reads what the privacy forms stored, for the site-*.e2e suites.
import type { BrowserContext, Page } from 'playwright-core';
import { openPrivacyRequest } from '@funnel/lead-store/suppression-list';
import type { Harness } from './harness';
import { harnessCipher } from './lead-in-redis';
import { collectPageErrors, openScreen } from './page-checks';

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught script errors so far. */
  errors: string[];
  /** The JavaScript files the page fetched, by file name ('terms-of-use-page-Ab12.js'). */
  scripts: string[];
}

/** A fresh visitor at `width` × 900 on `path`, once the page's h1 is shown (its lazy chunk has loaded). */
export async function openPage(harness: Harness, path: string, width = 1280): Promise<OpenedPage> {
  const context = await harness.newContext(width);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script')
      scripts.push(new URL(request.url()).pathname.split('/').pop() ?? '');
  });
  await openScreen(page, path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { context, page, errors, scripts };
}

/** One entry of the `{prefix}privacy-requests` stream, as the suppression list appends it. */
export interface StoredPrivacyRequest {
  id: string;
  fields: Record<string, string>;
  /** The `request` field, opened with the harness's key ring and parsed. */
  request: Record<string, unknown>;
}

/** Every privacy request the harness's BFF has recorded, oldest first (XRANGE over the stream). */
export async function storedPrivacyRequests(harness: Harness): Promise<StoredPrivacyRequest[]> {
  const entries = await harness.redis.xrange(`${harness.config.keyPrefix}privacy-requests`, '-', '+');
  return entries.map(([id, flat]) => {
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
    return { id, fields, request: openPrivacyRequest(harnessCipher(harness), fields) };
  });
}

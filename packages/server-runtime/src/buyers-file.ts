import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { BuyersFileSchema, type BuyersFile } from '@funnel/contracts/buyers';

/**
 * Reads and validates the buyers file named by `BUYERS_FILE` into the environment being parsed: the worker walks
 * its buyers, the BFF applies their return terms (ADR 0020). Every problem becomes an issue on
 * `BUYERS_FILE.<path in the file>`, so a bad file stops start-up listing all of them.
 */
export function readBuyersFile(path: string, ctx: z.RefinementCtx): BuyersFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    ctx.addIssue({ code: 'custom', path: ['BUYERS_FILE'], message: 'cannot be read' });
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', path: ['BUYERS_FILE'], message: 'is not valid JSON' });
    return undefined;
  }
  const parsed = BuyersFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', path: ['BUYERS_FILE', ...issue.path], message: issue.message });
  }
  return undefined;
}

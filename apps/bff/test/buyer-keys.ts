import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReturnPolicy } from '@funnel/contracts/buyers';

/** A buyer API key as `scripts/buyer-key.mjs` makes one, and its `BUYER_API_KEYS` entry. */
export function buyerKey(buyerId: string, ratePerMinute = 1000) {
  const key = `fbk_${randomBytes(24).toString('base64url')}`;
  return { key, entry: `${buyerId}:${createHash('sha256').update(key).digest('hex')}:${ratePerMinute}` };
}

/** Writes a buyers file of one sync-post buyer `prime` with these return terms into `folder`; answers its path. */
export function writePrimeBuyersFile(folder: string, returns: ReturnPolicy): string {
  const file = path.join(folder, 'buyers.json');
  const prime = {
    id: 'prime',
    protocol: 'sync-post',
    baseUrl: 'http://127.0.0.1:4010/buyers/prime',
    tier: 1,
    priceLadder: [50, 20],
    returns,
  };
  writeFileSync(file, JSON.stringify({ timeZone: 'America/New_York', buyers: [prime] }));
  return file;
}

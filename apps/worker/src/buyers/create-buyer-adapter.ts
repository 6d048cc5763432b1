import type { Buyer } from '@funnel/contracts/buyers';
import type { AdapterOptions, BuyerAdapter, CallObserver } from './buyer-adapter.js';
import { LeadServiceAdapter } from './lead-service-adapter.js';
import { SyncPostAdapter } from './sync-post-adapter.js';

/** The adapter of the buyer's protocol, with its own connection pool. */
export function createBuyerAdapter(
  buyer: Buyer,
  observe?: CallObserver,
  options: AdapterOptions = {},
): BuyerAdapter {
  return buyer.protocol === 'sync-post'
    ? new SyncPostAdapter(buyer, observe, options)
    : new LeadServiceAdapter(buyer, observe, options);
}

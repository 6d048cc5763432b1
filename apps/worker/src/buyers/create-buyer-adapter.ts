import type { Buyer } from '@funnel/contracts/buyers';
import type { AdapterOptions, BuyerAdapter, CallObserver } from './buyer-adapter.js';
import { LeadServiceAdapter } from './lead-service-adapter.js';
import { PingPostAdapter } from './ping-post-adapter.js';
import { SyncPostAdapter } from './sync-post-adapter.js';

/** The adapter of the buyer's protocol, with its own connection pool. */
export function createBuyerAdapter(
  buyer: Buyer,
  observe?: CallObserver,
  options: AdapterOptions = {},
): BuyerAdapter {
  switch (buyer.protocol) {
    case 'sync-post':
      return new SyncPostAdapter(buyer, observe, options);
    case 'ping-post':
      return new PingPostAdapter(buyer, observe, options);
    case 'lead-service':
      return new LeadServiceAdapter(buyer, observe, options);
  }
}

import type { FastifyInstance } from 'fastify';
import { DEFAULT_OUTCOME_CONFIG, type SandboxConfig } from './sandbox-config.js';
import type { SandboxBuyerStats } from '@funnel/contracts/sandbox-buyers';
import { FaultInjector } from './fault-injector.js';
import { LenderSimulator } from './lender-simulator.js';
import leadPingRoutes from './routes/lead-ping.js';
import leadSendRoutes from './routes/lead-send.js';
import lenderPageRoutes from './routes/lender-pages.js';
import sandboxAdminRoutes from './routes/sandbox-admin.js';
import pingPostRoutes from './routes/ping-post.js';
import syncPostRoutes from './routes/sync-post.js';
import { PingPostBuyer } from './ping-post-buyer.js';
import { ReturnsCaller } from './returns-caller.js';
import { SyncPostBuyer } from './sync-post-buyer.js';

/** Where a simulated buyer is served. */
export function buyerPath(id: string): string {
  return `/buyers/${id}`;
}

interface Served {
  stats(): SandboxBuyerStats;
  reset(): void;
}

/**
 * Serves each configured buyer under its own path, speaking its protocol: a lead-service buyer is a full network
 * simulator of its own (post, pending, ping, lender pages), a sync-post buyer answers each post at once, a
 * ping-post buyer bids on anonymous pings and takes the posts of its bids.
 */
export async function registerSimulatedBuyers(
  app: FastifyInstance,
  settings: SandboxConfig,
  now: (() => number) | undefined,
): Promise<{ stats(): SandboxBuyerStats[]; reset(): void }> {
  const served: Served[] = [];
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());
  for (const buyer of settings.buyers) {
    const prefix = buyerPath(buyer.id);
    const publicUrl = `${settings.publicUrl}${prefix}`;
    const returns =
      buyer.returns && settings.returnsUrl && buyer.protocol !== 'lead-service'
        ? new ReturnsCaller(buyer, buyer.returns, settings.returnsUrl)
        : undefined;
    if (returns) app.addHook('preClose', async () => returns.close());
    const onSold = returns && ((reference: string) => returns.sold(reference));
    const withReturns = (simulated: Served): Served =>
      returns
        ? {
            stats: () => ({ ...simulated.stats(), returns: returns.counts() }),
            reset: () => {
              simulated.reset();
              returns.reset();
            },
          }
        : simulated;
    if (buyer.protocol === 'sync-post') {
      const simulated = new SyncPostBuyer(buyer, publicUrl, settings.maxLeads, onSold);
      await app.register(syncPostRoutes, { prefix, buyer: simulated, closing: closing.signal });
      served.push(withReturns(simulated));
      continue;
    }
    if (buyer.protocol === 'ping-post') {
      const simulated = new PingPostBuyer(buyer, publicUrl, settings.maxLeads, now ?? Date.now, onSold);
      await app.register(pingPostRoutes, { prefix, buyer: simulated, closing: closing.signal });
      served.push(withReturns(simulated));
      continue;
    }
    const simulator = new LenderSimulator(
      {
        publicUrl,
        maxLeads: settings.maxLeads,
        acceptStates: buyer.states,
        outcome: {
          ...DEFAULT_OUTCOME_CONFIG,
          seed: buyer.seed,
          soldShare: buyer.soldShare,
          pendingShare: buyer.pendingShare,
          pendingMinMs: buyer.pendingMinMs,
          pendingMaxMs: buyer.pendingMaxMs,
          latencyMinMs: buyer.latencyMinMs,
          latencyMaxMs: buyer.latencyMaxMs,
          rejectRedirect: false,
        },
      },
      now,
    );
    const faults = new FaultInjector(() => simulator.config);
    app.addHook('preClose', async () => faults.close());
    const services = { simulator, faults };
    await app.register(leadSendRoutes, { prefix, ...services });
    await app.register(leadPingRoutes, { prefix, ...services });
    await app.register(lenderPageRoutes, { prefix, ...services });
    await app.register(sandboxAdminRoutes, { prefix, ...services });
    served.push({
      stats: () => simulator.buyerStats(buyer.id),
      reset: () => {
        simulator.reset();
        faults.reset();
      },
    });
  }
  return {
    stats: () => served.map((s) => s.stats()),
    reset: () => served.forEach((s) => s.reset()),
  };
}

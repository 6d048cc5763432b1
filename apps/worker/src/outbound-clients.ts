import { LenderClient } from './buyers/lender-client.js';
import type { Env } from './env.js';
import { WebhookSender } from './final-outcome/webhook-sender.js';
import { OutboundHttp } from './follow-ups/outbound-http.js';
import type { WorkerMetrics } from './metrics.js';

/**
 * The worker's HTTP clients to the outside, from its settings: the lender network (its calls counted on
 * /metrics), partner webhooks, the follow-ups' third parties and TrustedForm's key when one is set. Each keeps
 * its own connection pool; `build-worker.ts` closes them.
 */
export function outboundClients(env: Env, metrics: WorkerMetrics) {
  const lender = new LenderClient({
    baseUrl: env.LENDER_NETWORK_URL,
    ...(env.LENDER_NETWORK_API_KEY ? { apiKey: env.LENDER_NETWORK_API_KEY } : {}),
    connections: env.LENDER_CONNECTIONS,
    connectTimeoutMs: env.LENDER_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: env.LENDER_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: env.LENDER_BODY_TIMEOUT_MS,
    maxResponseBytes: env.UPSTREAM_RESPONSE_MAX_BYTES,
    observe: (endpoint, result, seconds) => {
      metrics.upstreamCalls.inc({ endpoint, result });
      metrics.upstreamSeconds.observe({ endpoint }, seconds);
    },
    pingTimeoutMs: Math.min(env.LENDER_PING_TIMEOUT_MS, env.POLL_INTERVAL_MS),
  });
  const webhookSender = new WebhookSender({
    allowPrivateNetworks: env.PARTNER_WEBHOOK_INSECURE,
    connectTimeoutMs: 5000,
    responseTimeoutMs: 10_000,
  });
  const outbound = new OutboundHttp({ connectTimeoutMs: 5000, responseTimeoutMs: 10_000 });
  const trustedForm = env.TRUSTEDFORM_API_KEY
    ? { apiKey: env.TRUSTEDFORM_API_KEY, certOrigin: env.TRUSTEDFORM_CERT_ORIGIN }
    : undefined;

  return { lender, webhookSender, outbound, trustedForm };
}

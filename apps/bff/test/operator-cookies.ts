import type { FastifyInstance } from 'fastify';
import type { OperatorRole } from '@funnel/contracts/operators';

/** A console session of each role (`{role}@{domain}`), as the `cookie` header that carries it. */
export async function operatorCookies(
  app: FastifyInstance,
  domain: string,
): Promise<Map<OperatorRole, string>> {
  const cookies = new Map<OperatorRole, string>();
  for (const role of ['viewer', 'manager', 'admin'] as const) {
    const session = await app.operatorSessions.start(
      { accountId: `${role}-${domain}`, email: `${role}@${domain}`, role },
      Date.now(),
    );
    cookies.set(role, `funnel_operator=${session}`);
  }
  return cookies;
}

import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_TO_SERVER as server } from '@funnel/contracts/fields';
import { openDatabase } from '@funnel/db/database';
import { doNotCallStatus } from '@funnel/db/do-not-call';
import { startDnsServer } from '@funnel/testing/dns-server';
import { createContactScreen } from '../src/screening/contact-screen.js';
import { createEmailScreen } from '../src/screening/email-screen.js';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

// The worker as deployed, screening each lead before any buyer sees it (ADR 0029), against the lender sandbox,
// which also plays the litigator list (numbers ending 99xx are listed).
describe('screening before the buyers', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    pipeline = new Pipeline();
    worker = await pipeline.startWorker(sandbox.url, {
      env: {
        LITIGATOR_LIST_URL: `${sandbox.url}/blacklist-alliance`,
        LITIGATOR_LIST_API_KEY: 'sandbox-litigator-key',
        SCREENING_TIMEOUT_MS: '400',
      },
    });
  });
  afterAll(async () => {
    await worker.close();
    await pipeline.close();
    await sandbox.process.stop();
  });
  beforeEach(async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 1, pendingShare: 0, litigatorDelayMs: 5 });
  });

  async function screened(fields: Record<string, string>, consent: { ip?: string } = {}) {
    const id = await pipeline.submitLead({ fields, consent });
    const outcome = await pipeline.finalOutcome(id);
    const lead = await pipeline.store.get(id);
    return { id, outcome, verdict: lead?.submission?.screening };
  }

  it('passes a clean lead on to the buyers', async () => {
    const { outcome, verdict } = await screened({});
    expect(outcome.outcome).toBe('sold');
    expect(verdict).toMatchObject({ verdict: 'pass', score: 100, reasons: [], unchecked: [] });
    expect((await sandbox.stats()).posts).toBe(1);
  });

  it("blocks a litigator's number before any buyer sees it", async () => {
    const { outcome, verdict } = await screened({ [server.phone]: '5125559901' });
    expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'screened_out' });
    expect(verdict).toMatchObject({ verdict: 'block', score: 0, reasons: ['phone_litigator'] });
    expect((await sandbox.stats()).posts).toBe(0);
  });

  it('blocks a disposable email address', async () => {
    const { outcome, verdict } = await screened({ [server.email]: 'maria.garcia@mailinator.com' });
    expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'screened_out' });
    expect(verdict).toMatchObject({ verdict: 'block', reasons: ['email_disposable'] });
    expect((await sandbox.stats()).posts).toBe(0);
  });

  it('flags the leads past three an hour from one public address, and keeps no address in clear', async () => {
    const from = (ip: string) => screened({}, { ip });
    const firstThree = [await from('81.2.69.160'), await from('81.2.69.160'), await from('81.2.69.160')];
    expect(firstThree.map(({ verdict }) => verdict?.verdict)).toEqual(['pass', 'pass', 'pass']);
    const fourth = await from('81.2.69.160');
    expect(fourth.outcome.outcome).toBe('sold');
    expect(fourth.verdict).toMatchObject({ verdict: 'flag', score: 70, reasons: ['ip_velocity'] });
    // Another address counts apart; the sample consent's address (a documentation one) is never counted.
    expect((await from('81.2.69.161')).verdict?.verdict).toBe('pass');
    for (let i = 0; i < 4; i++) expect((await screened({})).verdict?.verdict).toBe('pass');
    const keys = await pipeline.redis.keys(`${pipeline.keyPrefix}*`);
    expect(keys.filter((key) => key.includes('velocity'))).toHaveLength(2);
    for (const key of keys) expect(key).not.toContain('81.2.69');
  });

  it('lets a lead go on, flagged, when the litigator list does not answer in time (fails open)', async () => {
    await sandbox.configure({ litigatorDelayMs: 2000 });
    const { outcome, verdict } = await screened({ [server.phone]: '5125559902' });
    expect(outcome.outcome).toBe('sold');
    expect(verdict).toMatchObject({ verdict: 'flag', score: 80, reasons: [], unchecked: ['litigator'] });
    expect((await sandbox.stats()).posts).toBe(1);
  });
});

describe('a check that stops answering', () => {
  it('counts as not done, and screening waits no longer than its time for it', async () => {
    // A "PostgreSQL" that takes connections and never answers, and a DNS server that never answers either.
    const sockets: Socket[] = [];
    const silentDatabase = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silentDatabase.listen(0, '127.0.0.1', resolve));
    const { port } = silentDatabase.address() as { port: number };
    const db = openDatabase({ url: `postgres://funnel@127.0.0.1:${port}/funnel`, max: 1 });
    const dns = await startDnsServer({ 'example.com': { silent: true } });
    const email = createEmailScreen({ servers: [dns.address], timeoutMs: 2000, tries: 1 });
    try {
      const screen = createContactScreen({
        doNotCall: (phone) => doNotCallStatus(db, phone),
        email,
        timeoutMs: 200,
        now: Date.now,
      });
      const verdict = await screen.screen({
        leadId: 'lead-screening-silent-checks',
        phone: '5125550143',
        email: 'maria.garcia@example.com',
      });
      expect(verdict).toMatchObject({
        verdict: 'flag',
        score: 85,
        reasons: [],
        unchecked: ['do_not_call', 'email'],
      });
      // Both lookups were asked, and neither had answered.
      expect(dns.questions).toEqual(['example.com MX']);
      expect(sockets.length).toBe(1);
    } finally {
      email.close();
      for (const socket of sockets) socket.destroy();
      await db.destroy().catch(() => undefined);
      silentDatabase.close();
      await dns.close();
    }
  });
});

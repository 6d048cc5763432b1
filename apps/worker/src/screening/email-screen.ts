import { Resolver } from 'node:dns/promises';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

/**
 * What screening an email address found:
 * - `deliverable`: its domain takes mail (an MX record, or an address standing in for one, RFC 5321 §5.1);
 * - `disposable`: its domain, or a domain it is under, is on the disposable-address list;
 * - `no_domain`: the domain does not exist (NXDOMAIN);
 * - `no_mail`: the domain exists but says it takes no mail (a null MX, RFC 7505, or no MX and no address);
 * - `unchecked`: the resolver did not answer in time or failed. Fails open: a slow resolver is not the borrower's
 *   doing, and the lead goes on with the check named as not done.
 */
export type EmailFinding = 'deliverable' | 'disposable' | 'no_domain' | 'no_mail' | 'unchecked';

export interface EmailScreenOptions {
  /** The resolvers to ask (`host` or `host:port`); the system's when empty. */
  servers: string[];
  /** False: the disposable list alone, no lookup (every other address is `deliverable`). Default true. */
  lookups?: boolean;
  /** How long one query may take before it is tried again, and how many tries (c-ares's `timeout`, `tries`). */
  timeoutMs: number;
  tries: number;
}

/** The disposable-address list, read once: about 5,000 domains. */
let disposable: Set<string> | undefined;

/** True when `domain` or any domain it is under (`x.mailinator.com` under `mailinator.com`) is disposable. */
export function isDisposableDomain(domain: string): boolean {
  disposable ??= disposableEmailBlocklistSet();
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i += 1) {
    if (disposable.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/** Screens email addresses: the disposable list first (no lookup), then the domain's mail exchangers. */
export function createEmailScreen(options: EmailScreenOptions) {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers.length > 0) resolver.setServers(options.servers);

  async function takesMail(domain: string): Promise<EmailFinding> {
    try {
      const exchangers = await resolver.resolveMx(domain);
      const nullMx = exchangers.length === 1 && exchangers[0]!.exchange.replace(/\.$/, '') === '';
      if (nullMx) return 'no_mail';
      if (exchangers.length > 0) return 'deliverable';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') return 'no_domain';
      if (code !== 'ENODATA') return 'unchecked';
    }
    // No MX record: the domain's own address stands in for one (RFC 5321 §5.1).
    try {
      return (await resolver.resolve4(domain)).length > 0 ? 'deliverable' : 'no_mail';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENODATA' || code === 'ENOTFOUND' ? 'no_mail' : 'unchecked';
    }
  }

  return {
    async screen(email: string): Promise<EmailFinding> {
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
      if (isDisposableDomain(domain)) return 'disposable';
      return options.lookups === false ? 'deliverable' : takesMail(domain);
    },
    /** Stops any query still waiting. */
    close(): void {
      resolver.cancel();
    },
  };
}

export type EmailScreen = ReturnType<typeof createEmailScreen>;

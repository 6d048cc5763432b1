import { afterEach, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '@funnel/testing/dns-server';
import { createEmailScreen, isDisposableDomain, type EmailScreen } from '../src/screening/email-screen.js';

// A DNS server on the loopback answers the screen's lookups: real UDP, real c-ares, a table of names.
let server: DnsServer | undefined;
let screen: EmailScreen | undefined;
afterEach(async () => {
  screen?.close();
  await server?.close();
  server = undefined;
  screen = undefined;
});

async function screenAgainst(zones: Parameters<typeof startDnsServer>[0], timeoutMs = 300) {
  server = await startDnsServer(zones);
  screen = createEmailScreen({ servers: [server.address], timeoutMs, tries: 1 });
  return screen;
}

describe('email screening', () => {
  it('passes an address whose domain has mail exchangers, or only an address (implicit MX)', async () => {
    const email = await screenAgainst({
      'example-bank.test': { mx: [{ priority: 10, exchange: 'mx1.example-bank.test' }] },
      'small-shop.test': { a: ['192.0.2.10'] },
    });
    expect(await email.screen('jane.doe+loans@Example-Bank.test')).toBe('deliverable');
    expect(await email.screen('owner@small-shop.test')).toBe('deliverable');
    expect(server!.questions).toEqual(['example-bank.test MX', 'small-shop.test MX', 'small-shop.test A']);
  });

  it('names a domain that does not exist, and one that takes no mail (a null MX, or no MX and no address)', async () => {
    const email = await screenAgainst({
      'no-mail.test': { mx: [{ priority: 0, exchange: '' }] },
      'parked.test': {},
    });
    expect(await email.screen('someone@missing-domain.test')).toBe('no_domain');
    expect(await email.screen('someone@no-mail.test')).toBe('no_mail');
    expect(await email.screen('someone@parked.test')).toBe('no_mail');
  });

  it('catches a disposable domain and its subdomains without a lookup', async () => {
    const email = await screenAgainst({});
    expect(await email.screen('temp@mailinator.com')).toBe('disposable');
    expect(await email.screen('temp@inbox.mailinator.com')).toBe('disposable');
    expect(server!.questions).toEqual([]);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    // A domain merely containing or ending in the same letters is not under it.
    expect(isDisposableDomain('mailinator.com.example-bank.test')).toBe(false);
    expect(isDisposableDomain('letmailinator.com')).toBe(false);
  });

  it('fails open when the resolver does not answer in time', async () => {
    const email = await screenAgainst({ 'slow.test': { silent: true } }, 200);
    expect(await email.screen('someone@slow.test')).toBe('unchecked');
  });
});

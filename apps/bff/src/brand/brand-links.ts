import * as z from 'zod';
import { splitCommaList } from '@funnel/server-runtime/env-fields';
import {
  SAMPLE_CONTACT,
  SOCIAL_NETWORKS,
  SocialLinkSchema,
  type BrandLinks,
  type SocialLink,
} from '@funnel/contracts/public-config';

/** The settings production must have: how a borrower reaches the business. */
export const REQUIRED_BRAND_SETTINGS = [
  'BRAND_CONTACT_EMAIL',
  'BRAND_CONTACT_PHONE',
  'BRAND_CONTACT_HOURS',
  'BRAND_MAILING_ADDRESS',
] as const;

const NANP = /^\+?1?[\s.()-]*([2-9]\d{2})[\s.()-]*([2-9]\d{2})[\s.-]*(\d{4})$/;

/** A US phone number in any usual writing: '(800) 555-0142', '800-555-0142', '+1 800 555 0142'. */
export const BrandPhoneSchema = z
  .string()
  .trim()
  .regex(NANP, 'a 10-digit US phone number, e.g. (800) 555-0142')
  .transform((text) => {
    const [, area, exchange, line] = NANP.exec(text) ?? [];
    return { phone: `(${area}) ${exchange}-${line}`, phoneE164: `+1${area}${exchange}${line}` };
  });

/** The mailing address, one line per `|`: 'Acme LLC|1 Main St|Dover, DE 19901'. */
export const MailingAddressSchema = z
  .string()
  .transform((text) =>
    text
      .split('|')
      .map((line) => line.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string()).min(1, 'at least one line, lines separated by |'));

const HttpsSocialLinkSchema = SocialLinkSchema.extend({ url: z.url({ protocol: /^https$/ }) });

/** Social profiles as `network=https://…`, comma-separated; networks: facebook, x, instagram, linkedin, youtube. */
export const SocialLinksSchema = z.string().transform((text, ctx) => {
  const links: SocialLink[] = [];
  for (const entry of splitCommaList(text)) {
    const at = entry.indexOf('=');
    const parsed = HttpsSocialLinkSchema.safeParse({ network: entry.slice(0, at), url: entry.slice(at + 1) });
    if (at < 1 || !parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry.slice(0, 40)}" is not network=https://… (networks: ${SOCIAL_NETWORKS.join(', ')})`,
      });
      return z.NEVER;
    }
    links.push(parsed.data);
  }
  return links;
});

export interface BrandSettings {
  BRAND_CONTACT_EMAIL?: string | undefined;
  BRAND_PRIVACY_EMAIL?: string | undefined;
  BRAND_CONTACT_PHONE?: z.output<typeof BrandPhoneSchema> | undefined;
  BRAND_CONTACT_HOURS?: string | undefined;
  BRAND_MAILING_ADDRESS?: string[] | undefined;
  BRAND_BLOG_URL?: string | undefined;
  BRAND_SOCIAL_LINKS?: SocialLink[] | undefined;
}

/**
 * What the site shows of the business: the configured contact details, or, when any required one is missing
 * (outside production), the sample ones marked as such; the blog and social links only when configured.
 */
export function brandLinks(settings: BrandSettings): BrandLinks {
  const {
    BRAND_CONTACT_EMAIL: email,
    BRAND_CONTACT_PHONE: phone,
    BRAND_CONTACT_HOURS: hours,
    BRAND_MAILING_ADDRESS: mailingAddress,
  } = settings;
  const contact =
    email && phone && hours && mailingAddress
      ? {
          email,
          privacyEmail: settings.BRAND_PRIVACY_EMAIL ?? email,
          ...phone,
          hours,
          mailingAddress,
          sample: false,
        }
      : { ...SAMPLE_CONTACT, mailingAddress: [...SAMPLE_CONTACT.mailingAddress], sample: true };
  return {
    contact,
    ...(settings.BRAND_BLOG_URL ? { blogUrl: settings.BRAND_BLOG_URL } : {}),
    social: settings.BRAND_SOCIAL_LINKS ?? [],
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import {
  JORNAYA_DISCLOSURE_LABEL_ID,
  JORNAYA_TOKEN_FIELD,
  PublicConfigSchema,
  TRUSTEDFORM_CERT_FIELD,
  type BrandLinks,
  type PublicConfig,
} from '@funnel/contracts/public-config';
import type { ConsentScripts } from '../consent/consent-scripts.js';

export interface PublicConfigRouteOptions {
  scripts: ConsentScripts;
  partnerListVersion: string;
  /** BUSINESS_TIME_ZONE: the day ages and pay dates are checked on. */
  businessTimeZone: string;
  /** DUPLICATE_WINDOW_DAYS: when a duplicate borrower may apply again. */
  duplicateWindowDays: number;
  /** The business's contact details and links (`BRAND_*`). */
  brand: BrandLinks;
}

/** What the browser needs to know about this deployment: public by nature, never a secret. */
const publicConfigRoutes: FastifyPluginAsyncZod<PublicConfigRouteOptions> = async (app, options) => {
  const { trustedForm, jornaya } = options.scripts;
  const config: PublicConfig = {
    consentVersion: CONSENT_VERSION,
    partnerListVersion: options.partnerListVersion,
    businessTimeZone: options.businessTimeZone,
    duplicateWindowDays: options.duplicateWindowDays,
    brand: options.brand,
    trustedForm: {
      enabled: trustedForm !== undefined,
      ...(trustedForm ? { scriptUrl: trustedForm.scriptUrl } : {}),
      certificateField: TRUSTEDFORM_CERT_FIELD,
    },
    jornaya: {
      enabled: jornaya !== undefined,
      ...(jornaya ? { scriptUrl: jornaya.scriptUrl } : {}),
      tokenField: JORNAYA_TOKEN_FIELD,
      disclosureLabelId: JORNAYA_DISCLOSURE_LABEL_ID,
    },
    dataAttributions: [...app.referenceData.attributions],
  };

  app.get(
    '/config',
    {
      schema: {
        summary: 'Public configuration for the web app',
        description:
          'The consent text version, the partner list version, the business time zone (the calendar day ages ' +
          'and pay dates are checked on), the duplicate window in days, the contact details and links of the ' +
          'business (`brand`; `brand.contact.sample` when they are the built-in samples), and which ' +
          'consent-certification scripts to ' +
          'load. When `trustedForm.enabled`, the landing and SSN pages add `scriptUrl` and a hidden input ' +
          `\`${TRUSTEDFORM_CERT_FIELD}\`; when \`jornaya.enabled\`, they add its \`scriptUrl\`, a hidden input ` +
          `\`${JORNAYA_TOKEN_FIELD}\` and wrap the consent text in a label with id ` +
          `\`${JORNAYA_DISCLOSURE_LABEL_ID}\`. The values of both inputs go in the landing request's \`tracking\` ` +
          'and again in the submit request (`trustedFormUrl`, `jornayaLeadId`). The Content-Security-Policy ' +
          'allows their hosts only when enabled.',
        tags: ['config'],
        response: { 200: PublicConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return config;
    },
  );
};

export default publicConfigRoutes;

/**
 * The third-party consent-certification scripts (TrustedForm, Jornaya LeadiD): where each loads from and which
 * hosts it talks to. Both are off unless configured: a deployment without them loads no third-party script and
 * its Content-Security-Policy names no third-party host.
 */
import { TRUSTEDFORM_CERT_FIELD } from '@funnel/contracts/public-config';

export interface ConsentScriptsConfig {
  trustedForm: boolean;
  jornaya: { campaignId: string } | undefined;
}

/** One enabled script: its URL and what the CSP must allow for it. */
export interface ConsentScript {
  scriptUrl: string;
  csp: { scriptSrc: string[]; connectSrc: string[]; imgSrc: string[] };
}

export interface ConsentScripts {
  trustedForm?: ConsentScript;
  jornaya?: ConsentScript;
}

// ActiveProspect's CSP guide: the Certify script loads from its CDN and API hosts and reports to the API host.
const TRUSTEDFORM_HOSTS = ['https://api.trustedform.com', 'https://cdn.trustedform.com'];
// Verisk's campaign script loads from lidstatic.com and sends the form events to leadid.com hosts.
const JORNAYA_SCRIPT_HOSTS = ['https://create.lidstatic.com'];
const JORNAYA_EVENT_HOSTS = ['https://*.leadid.com'];

/** The scripts this deployment enables. */
export function consentScripts(config: ConsentScriptsConfig): ConsentScripts {
  return {
    ...(config.trustedForm
      ? {
          trustedForm: {
            scriptUrl: `https://api.trustedform.com/trustedform.js?field=${TRUSTEDFORM_CERT_FIELD}`,
            csp: { scriptSrc: TRUSTEDFORM_HOSTS, connectSrc: TRUSTEDFORM_HOSTS, imgSrc: TRUSTEDFORM_HOSTS },
          },
        }
      : {}),
    ...(config.jornaya
      ? {
          jornaya: {
            scriptUrl: `https://create.lidstatic.com/campaign/${encodeURIComponent(config.jornaya.campaignId)}.js?snippet_version=2`,
            csp: {
              scriptSrc: JORNAYA_SCRIPT_HOSTS,
              connectSrc: JORNAYA_EVENT_HOSTS,
              imgSrc: JORNAYA_EVENT_HOSTS,
            },
          },
        }
      : {}),
  };
}

/** The extra CSP sources of the enabled scripts, per directive, without duplicates. */
export function consentScriptSources(scripts: ConsentScripts): ConsentScript['csp'] {
  const enabled = [scripts.trustedForm, scripts.jornaya].flatMap((script) => (script ? [script.csp] : []));
  const union = (pick: (csp: ConsentScript['csp']) => string[]) => [...new Set(enabled.flatMap(pick))];
  return {
    scriptSrc: union((csp) => csp.scriptSrc),
    connectSrc: union((csp) => csp.connectSrc),
    imgSrc: union((csp) => csp.imgSrc),
  };
}

import { useEffect, type ReactNode } from 'react';
import {
  JORNAYA_DISCLOSURE_LABEL_ID,
  JORNAYA_TOKEN_FIELD,
  TRUSTEDFORM_CERT_FIELD,
} from '@funnel/contracts/consent-fields';
import { usePublicConfig } from '@/lib/public-config';

/** The id Jornaya's script looks the token input up by. */
const JORNAYA_TOKEN_INPUT_ID = 'leadid_token';

/**
 * What TrustedForm's and Jornaya's consent-certification scripts need on a screen where consent is given: the
 * hidden inputs they fill (read back with `readConsentCertificates`), and the scripts themselves, added only when
 * GET /api/v1/config enables them (the Content-Security-Policy allows their hosts only then). Render it inside the
 * form the consent belongs to, with the consent wording in a {@link ConsentDisclosure}.
 */
export function ConsentCertification() {
  const config = usePublicConfig().data;
  useAsyncScript(config?.trustedForm.enabled ? config.trustedForm.scriptUrl : undefined);
  useAsyncScript(config?.jornaya.enabled ? config.jornaya.scriptUrl : undefined);
  // No value prop: React would write it back over what the scripts wrote on every re-render.
  return (
    <>
      <input type="hidden" id={TRUSTEDFORM_CERT_FIELD} name={TRUSTEDFORM_CERT_FIELD} />
      <input type="hidden" id={JORNAYA_TOKEN_INPUT_ID} name={JORNAYA_TOKEN_FIELD} />
    </>
  );
}

/**
 * The consent wording, in the label Jornaya records as the TCPA disclosure. `htmlFor` names the hidden token
 * input, which no label can label: without it the label would label the first button inside it (Rates & Fees),
 * renaming that button and pressing it on any click on the text.
 */
export function ConsentDisclosure({ children }: { children: ReactNode }) {
  return (
    <label id={JORNAYA_DISCLOSURE_LABEL_ID} htmlFor={JORNAYA_TOKEN_INPUT_ID}>
      {children}
    </label>
  );
}

/**
 * Adds the script while the screen is shown. A single-page app loads no new page between consent screens, so each
 * screen adds the script again for the vendor to certify that screen's form.
 */
function useAsyncScript(src: string | undefined) {
  useEffect(() => {
    if (!src) return;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    document.body.append(script);
    return () => script.remove();
  }, [src]);
}

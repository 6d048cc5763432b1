import { Link } from 'react-router';
import { consentText, type SubmitButton } from '@funnel/contracts/consent';
import { ConsentCertification, ConsentDisclosure } from '@/components/consent/consent-certification';
import { RatesAndFeesButton } from '@/components/content/rates-and-fees-button';
import styles from './consent-text.module.css';

/** The documents the consent paragraph names, linked where it names them. */
const DOCUMENTS = new Map([
  ['Terms of Use', '/terms-of-use'],
  ['Privacy Policy', '/privacy'],
  ['Disclaimer', '/disclaimer'],
  ['Credit Authorization Agreement', '/credit-authorization-agreement'],
]);
const DOCUMENT_NAMES = new RegExp(`(${[...DOCUMENTS.keys()].join('|')})`);

// Legal pages open in a new tab so what is typed on this screen is not lost.
const NEW_TAB = { target: '_blank', rel: 'noopener' } as const;

/**
 * The consent a visitor gives by pressing the final button: exactly `consentText(button)` of the contracts, whose
 * version and SHA-256 the BFF stores with the submitted lead, so the paragraph must read word for word as that
 * text. The named documents are links inside it; the partner list and the Rates & Fees it relies on follow it.
 * The consent-certification scripts (TrustedForm, Jornaya) run where it is shown, when the deployment enables them.
 */
export function ConsentText({ button }: { button: SubmitButton }) {
  const parts = consentText(button).split(DOCUMENT_NAMES);
  return (
    <>
      <ConsentCertification />
      <p className={styles.consent} data-consent={button}>
        <ConsentDisclosure>
          {parts.map((part, index) => {
            const to = DOCUMENTS.get(part);
            return to ? (
              <Link key={index} to={to} {...NEW_TAB}>
                {part}
              </Link>
            ) : (
              part
            );
          })}
        </ConsentDisclosure>
      </p>
      {/* A div, not a p: the Rates & Fees button brings its <dialog>, which a paragraph cannot hold (the browser
          would close the paragraph before it, and the prerendered page would not hydrate). */}
      <div className={styles.related}>
        See the{' '}
        <Link to="/partners" {...NEW_TAB}>
          Partners
        </Link>{' '}
        in our network and our <RatesAndFeesButton />.
      </div>
    </>
  );
}

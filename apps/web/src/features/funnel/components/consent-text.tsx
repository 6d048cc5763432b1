import { Link } from 'react-router';
import { RatesAndFeesButton } from '@/components/content/rates-and-fees-button';
import { BRAND_NAME } from '@/config/brand';
import styles from './consent-text.module.css';

/**
 * The consent a visitor gives by pressing the final button (spec §1's consent wording). Legal pages open in a
 * new tab so what is typed on this screen is not lost.
 */
export function ConsentText({ buttonLabel }: { buttonLabel: string }) {
  const legal = { target: '_blank', rel: 'noopener' } as const;
  return (
    <p className={styles.consent}>
      By clicking <strong>{buttonLabel}</strong>, you agree that {BRAND_NAME}, lenders and marketing partners
      in our network may contact you by email, text message and autodialed or prerecorded calls at the email
      address and phone number you gave us, including about other offers. Consent is not a condition of any
      loan; reply STOP to any text to opt out. Clicking {buttonLabel} is your electronic signature. You also
      agree to our{' '}
      <Link to="/terms-of-use" {...legal}>
        Terms of Use
      </Link>
      ,{' '}
      <Link to="/privacy" {...legal}>
        Privacy Policy
      </Link>
      ,{' '}
      <Link to="/disclaimer" {...legal}>
        Disclaimer
      </Link>{' '}
      and{' '}
      <Link to="/credit-authorization-agreement" {...legal}>
        Credit Authorization Agreement
      </Link>
      , to sharing your information with our{' '}
      <Link to="/partners" {...legal}>
        Partners
      </Link>
      , and that you have read our <RatesAndFeesButton />. Lenders may check your credit with a soft inquiry,
      which does not affect your credit score; a lender may make a hard inquiry if you continue with its
      offer.
    </p>
  );
}

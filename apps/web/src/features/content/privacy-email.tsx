import { Link } from 'react-router';
import { useBrandLinks } from '@/lib/brand-links';

/** The address privacy requests go to, as a mail link; until the configuration has loaded, the Contact Us page. */
export function PrivacyEmail() {
  const email = useBrandLinks()?.contact.privacyEmail;
  return email ? <a href={`mailto:${email}`}>{email}</a> : <Link to="/contact-us">our Contact Us page</Link>;
}

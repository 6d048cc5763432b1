import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { HOW_IT_WORKS_SECTION_ID, HowItWorksSteps } from '@/components/content/how-it-works-steps';
import { LenderDisclaimer } from '@/components/content/lender-disclaimer';
import { RatesAndFees } from '@/components/content/rates-and-fees';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { BRAND_NAME } from '@/config/brand';
import { useLead } from '@/lib/get-lead';
import { useHydrated } from '@/lib/hydration';
import { describeError, postClientLog } from '@/lib/post-client-log';
import { useCreateLead } from '../api/create-lead';
import { carriesDeepLink } from '../utils/deep-link-params';
import type { DeepLink } from '../utils/read-deep-link';
import { isUnfinished } from '../utils/resume-route';
import { LandingForm } from './landing-form';
import { ResumeOffer } from './resume-offer';
import { TrustSeals } from './trust-seals';
import { WhyChooseUs } from './why-choose-us';
import styles from './landing.module.css';

/**
 * The start screen (/start): the loan form in the hero, then the marketing of spec §1 (how it works, why choose
 * us, the Rates & Fees disclosure, trust seals and the lender disclaimer) and a call-to-action back to the form.
 * A deep link `?email=&loan_reason=` instead creates a pre-filled lead behind a full-page loader and continues on
 * the step the BFF names; it never resumes an existing lead (docs/product-rules.md §returning-visitors-and-sessions). Either way the landing URL's
 * attribution parameters go with the landing request, and the consent-certification scripts run on the form.
 * A returning visitor with an unfinished application is offered to continue it or start over in place of the
 * form (docs/product-rules.md §returning-visitors-and-sessions), so Get Started never silently begins a second application.
 */
export default function LandingScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate: createLead } = useCreateLead();
  // Read once: the effect below removes the deep link's parameters from the address bar straight away.
  const [landingSearch] = useState(() => location.search);
  const [hasDeepLink] = useState(() => carriesDeepLink(landingSearch));
  // What the deep link carries, once read (its checks load with zod after hydration).
  const [deepLink, setDeepLink] = useState<DeepLink>();
  const [deepLinkFailed, setDeepLinkFailed] = useState(false);
  const handled = useRef(false);
  const firstFieldRef = useRef<HTMLSelectElement>(null);
  const formRef = useRef<HTMLDivElement>(null);
  // A deep link always starts a new lead; anyone else may have one to continue. New visitors see the form while
  // the lead is read (a 404 for them), so the first screen never waits on it.
  const lead = useLead({ enabled: !hasDeepLink || (deepLink !== undefined && !deepLink.request) });
  const [startedOver, setStartedOver] = useState(false);
  const resumable = !startedOver && isUnfinished(lead.data) ? lead.data : undefined;

  useEffect(() => {
    if (startedOver) firstFieldRef.current?.focus();
  }, [startedOver]);

  useEffect(() => {
    if (!hasDeepLink || handled.current) return;
    handled.current = true;
    const failed = (error: unknown) => {
      setDeepLinkFailed(true);
      postClientLog({ pretext: 'Deep link lead failed', text: describeError(error), type: 'error' });
    };
    void Promise.all([import('../utils/read-deep-link'), import('../utils/read-landing-params')]).then(
      ([{ readDeepLink }, { readLandingParams }]) => {
        const link = readDeepLink(landingSearch);
        setDeepLink(link);
        void navigate({ search: link?.remainingSearch ?? '' }, { replace: true });
        if (!link?.request) return;
        createLead(
          { ...link.request, landingParams: readLandingParams(landingSearch) },
          {
            onSuccess: (summary) => void navigate(`/${summary.nextStep}`, { replace: true }),
            onError: failed,
          },
        );
      },
      failed,
    );
  }, [hasDeepLink, landingSearch, navigate, createLead]);

  // The prerendered /start has no query: the render that hydrates it draws the plain form too.
  const hydrated = useHydrated();

  // A deep link's visitor waits here while it is read, and while its lead is made.
  if (hydrated && hasDeepLink && !deepLinkFailed && (deepLink === undefined || deepLink.request)) {
    return <PageLoader fullPage message="Preparing your loan request…" />;
  }

  return (
    <>
      <section className={styles.hero}>
        <div className={`container ${styles.heroInner}`}>
          <div className={styles.pitch}>
            <PageHeading className={styles.title} documentTitle="Personal loans from $100 to $5,000">
              Personal loans from $100 to $5,000
            </PageHeading>
            <p className={styles.lead}>
              One short, secure request reaches lenders in our network. {BRAND_NAME} is free to use and you
              are never obliged to accept an offer.
            </p>
            <ul className={styles.benefits}>
              <li>Free, with no obligation</li>
              <li>One request reaches many lenders</li>
              <li>Takes only a few minutes</li>
            </ul>
          </div>
          <div ref={formRef} className={styles.formCard}>
            {resumable ? (
              <ResumeOffer lead={resumable} onStartedOver={() => setStartedOver(true)} />
            ) : (
              <LandingForm
                initialLoanReason={hydrated ? deepLink?.loanReason : undefined}
                landingSearch={landingSearch}
                firstFieldRef={firstFieldRef}
              />
            )}
          </div>
        </div>
      </section>
      <section
        id={HOW_IT_WORKS_SECTION_ID}
        className={styles.section}
        aria-labelledby="how-it-works-title"
        tabIndex={-1}
      >
        <div className="container">
          <h2 id="how-it-works-title" className={styles.sectionTitle}>
            How it works
          </h2>
          <HowItWorksSteps />
        </div>
      </section>
      <section className={`${styles.section} ${styles.tinted}`} aria-labelledby="why-choose-us-title">
        <div className="container">
          <h2 id="why-choose-us-title" className={styles.sectionTitle}>
            Why choose {BRAND_NAME}
          </h2>
          <WhyChooseUs />
        </div>
      </section>
      <section className={styles.section} aria-labelledby="rates-and-fees-title">
        <div className="container">
          <h2 id="rates-and-fees-title" className={styles.sectionTitle}>
            Rates &amp; Fees
          </h2>
          <div className={styles.readable}>
            <RatesAndFees />
          </div>
        </div>
      </section>
      <section className={`${styles.section} ${styles.tinted}`} aria-labelledby="trust-title">
        <div className="container">
          <h2 id="trust-title" className={styles.sectionTitle}>
            Safe and transparent
          </h2>
          <TrustSeals />
          <LenderDisclaimer className={styles.disclaimer} />
        </div>
      </section>
      <section className={styles.cta} aria-labelledby="cta-title">
        <div className={`container ${styles.ctaInner}`}>
          <h2 id="cta-title" className={styles.ctaTitle}>
            Ready when you are
          </h2>
          <p>It takes a few minutes, and checking your options costs nothing.</p>
          <Button
            variant="secondary"
            onClick={() => {
              formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
              const target = firstFieldRef.current ?? formRef.current?.querySelector('button');
              target?.focus({ preventScroll: true });
            }}
          >
            Get Started
          </Button>
        </div>
      </section>
    </>
  );
}

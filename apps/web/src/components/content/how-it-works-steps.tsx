import styles from './content.module.css';

/** The landing page's how-it-works section, which the header's How it works link scrolls to there. */
export const HOW_IT_WORKS_SECTION_ID = 'how-it-works';

const STEPS = [
  {
    title: 'Submit your information',
    text: 'Tell us how much you need and answer a few short questions. It takes a few minutes and costs nothing.',
  },
  {
    title: 'Get a fast loan decision',
    text: 'We pass your request to lenders in our network. A lender that can help may make you an offer within minutes.',
  },
  {
    title: 'Check your account',
    text: 'If you accept an offer, the lender sends the money straight to your bank account.',
  },
] as const;

/** The three steps of spec §1's "how it works", numbered. */
export function HowItWorksSteps() {
  return (
    <ol className={styles.steps}>
      {STEPS.map((step, index) => (
        <li key={step.title} className={styles.step}>
          <span className={styles.stepNumber} aria-hidden="true">
            {index + 1}
          </span>
          <div>
            <h3 className={styles.stepTitle}>{step.title}</h3>
            <p className={styles.stepText}>{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

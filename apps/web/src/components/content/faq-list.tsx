import styles from './content.module.css';

const QUESTIONS = [
  {
    question: 'What is this service?',
    answer:
      'A free referral service. Your one request reaches lenders in our network, who decide whether to offer you a loan.',
  },
  {
    question: 'Are you a lender?',
    answer:
      'No. We do not make loans or credit decisions. The lender you are connected with sets the terms of any offer.',
  },
  {
    question: 'Does it cost anything?',
    answer: 'No. Our service is free. You are never obliged to accept an offer.',
  },
  {
    question: 'Why do you ask for my SSN and bank details?',
    answer:
      'Lenders use them to confirm who you are and to send the money to your account if you accept an offer. We encrypt them when they are stored.',
  },
  {
    question: 'Can I apply with bad credit?',
    answer: 'Yes. Lenders in our network consider all credit types, although approval is never guaranteed.',
  },
  {
    question: 'How much can I request?',
    answer: 'From $100 to $5,000.',
  },
] as const;

/** The most asked questions, for the header's FAQs popup. */
export function FaqList() {
  return (
    <dl className={styles.faq}>
      {QUESTIONS.map((item) => (
        <div key={item.question} className={styles.faqItem}>
          <dt className={styles.faqQuestion}>{item.question}</dt>
          <dd className={styles.faqAnswer}>{item.answer}</dd>
        </div>
      ))}
    </dl>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BRAND } from '@/config/brand';
import { RepresentativeExample } from './representative-example';
import styles from './content.module.css';

interface FaqItem {
  question: string;
  answer: ReactNode;
}

/** The 14 questions of spec §1, in the order a first-time visitor tends to ask them. */
const FAQ_ITEMS: readonly FaqItem[] = [
  {
    question: `What is ${BRAND.name}?`,
    answer: (
      <p>
        {BRAND.name} is a free online service for people looking for a personal loan. You fill in one short
        request, and we pass it to lenders in our network. A lender that is able to help you can then present
        an offer, which you are free to accept or turn down.
      </p>
    ),
  },
  {
    question: `How much does it cost to use ${BRAND.name}?`,
    answer: (
      <p>
        Nothing. We never charge you for submitting a request or for being connected with a lender; lenders
        and partners pay us for the requests they receive. The cost of a loan itself (interest and any fees)
        is set by the lender and shown to you before you sign.
      </p>
    ),
  },
  {
    question: 'How quickly can I get the money?',
    answer: (
      <p>
        The request takes a few minutes, and many lenders answer within minutes. If you accept an offer,
        lenders often send the money as soon as the next business day, but the exact timing depends on the
        lender and on your bank.
      </p>
    ),
  },
  {
    question: 'Why do you ask for my Social Security number?',
    answer: (
      <p>
        Lenders need it to confirm who you are, to look up your credit history and to protect you against
        identity fraud. We encrypt it as soon as it reaches us and never show it in full again.
      </p>
    ),
  },
  {
    question: 'Why do you need my bank account details?',
    answer: (
      <p>
        A lender that approves your request pays the money into your bank account, and usually takes
        repayments from it if you agree to that. Your account and routing numbers are encrypted when we store
        them.
      </p>
    ),
  },
  {
    question: `Is ${BRAND.name} a lender?`,
    answer: (
      <p>
        No. We do not make loans or credit decisions and we are not a party to any loan agreement. The lender
        you are connected with decides whether to lend and sets every term of its offer.
      </p>
    ),
  },
  {
    question: 'Can I request a loan with bad credit?',
    answer: (
      <p>
        Yes. Lenders in our network consider all credit types, and many look at your income and employment as
        well as your score. A lower score can still mean a higher rate or no offer, so approval is never
        guaranteed.
      </p>
    ),
  },
  {
    question: 'Where do I find my routing and account numbers?',
    answer: (
      <p>
        At the bottom of a paper check: the 9-digit number on the left is the routing number, and the number
        after it is your account number. You can also find both in your bank&apos;s app or online banking, on
        a bank statement, or by asking your bank.
      </p>
    ),
  },
  {
    question: 'What happens if I cannot repay on time?',
    answer: (
      <p>
        That depends on your agreement with the lender. A late or missed payment can bring late or
        returned-payment fees, collection activity and a report to the credit bureaus that lowers your score.
        If you expect to miss a payment, contact your lender before the due date: many can agree to a new
        payment date or plan.
      </p>
    ),
  },
  {
    question: 'What is an installment loan?',
    answer: (
      <p>
        A loan you repay in a set number of scheduled payments, usually monthly, over an agreed term. Each
        payment covers the interest due and part of the amount borrowed, so the balance falls to zero by the
        last payment.
      </p>
    ),
  },
  {
    question: 'How much can I borrow?',
    answer: (
      <p>
        You can request from $100 to $5,000. How much a lender offers depends on its own rules, the laws of
        your state and your circumstances, and it may be less than you asked for.
      </p>
    ),
  },
  {
    question: 'Can I renew or extend a loan?',
    answer: (
      <p>
        Some lenders let you renew, extend or refinance a loan and others do not; some states limit it. A
        renewal usually adds interest and fees and raises what the loan costs you in total, so ask the lender
        and read its renewal policy before you accept an offer.
      </p>
    ),
  },
  {
    question: 'What could a loan cost me? A representative example',
    answer: (
      <p>
        <RepresentativeExample /> Your own APR and costs depend on the lender, your state and your credit, and
        the lender discloses them before you sign. See also{' '}
        <Link to="/disclaimer" className={styles.inlineLink}>
          our Disclaimer
        </Link>
        .
      </p>
    ),
  },
  {
    question: 'How do lenders collect late payments?',
    answer: (
      <p>
        Each lender follows its own collection policy, which must respect federal and state law, including the
        Fair Debt Collection Practices Act where it applies. Expect reminders by email, text or phone,
        possibly a collection agency, and reports to credit bureaus. {BRAND.name} never collects payments or
        debts. Read the collection terms in your loan agreement before you sign.
      </p>
    ),
  },
];

/**
 * The frequently asked questions as native disclosure widgets (`<details>`): keyboard- and screen-reader
 * friendly without script, each answer opening under its question. Used by the FAQ page and the header popup.
 */
export function FaqList() {
  return (
    <div className={styles.faq}>
      {FAQ_ITEMS.map((item) => (
        <details key={item.question} className={styles.faqItem}>
          <summary className={styles.faqQuestion}>{item.question}</summary>
          <div className={styles.faqAnswer}>{item.answer}</div>
        </details>
      ))}
    </div>
  );
}

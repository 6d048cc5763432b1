import { useEffect, useRef, useState } from 'react';
import {
  CROSS_SELL_QUESTIONS,
  mergeCrossSellAnswers,
  sendsCrossSellRecord,
  type CrossSellAnswer,
  type CrossSellAnswerValue,
} from '@funnel/contracts/cross-sell';
import { Button } from '@/components/ui/button';
import { CARD_OFFERS_URL } from '@/config/cross-sell';
import { useRecordCrossSell } from '../api/record-cross-sell';
import { CROSS_SELL_CARDS } from '../utils/cross-sell-questions';
import styles from './cross-sell-panel.module.css';

const HEADING_ID = 'cross-sell-heading';
const CARD_HEADING_ID = 'cross-sell-question';

/**
 * The cross-sell questions shown while the visitor waits (spec §2, §4): four yes/no cards, one at a time, then a
 * thank-you card whose 'Got it' closes the panel. Yes on the first card opens the card options in a new tab.
 * Every yes except the one to the debt question sends a record (spec §4) with the answers not sent yet, so the
 * debt answer travels with the next one; the BFF keeps every answer and derives the markers 14, 13 and 12.
 */
export function CrossSellPanel({ onClose }: { onClose: () => void }) {
  const [unsent, setUnsent] = useState<CrossSellAnswer[]>([]);
  const [position, setPosition] = useState(0);
  const { mutate: record } = useRecordCrossSell();
  const cardHeading = useRef<HTMLHeadingElement>(null);
  const answered = useRef(false);

  // The pressed button is gone with its card: the next card's question takes focus, where a screen reader
  // continues reading and a keyboard user's next Tab reaches its answers.
  useEffect(() => {
    if (answered.current) cardHeading.current?.focus();
  }, [position]);

  const question = CROSS_SELL_QUESTIONS[position];

  function answer(value: CrossSellAnswerValue) {
    if (!question) return;
    const given: CrossSellAnswer = { question, answer: value };
    const answers = mergeCrossSellAnswers(unsent, [given]);
    if (sendsCrossSellRecord(given)) {
      record({ answers });
      setUnsent([]);
    } else {
      setUnsent(answers);
    }
    answered.current = true;
    setPosition(position + 1);
  }

  return (
    <section className={styles.panel} aria-labelledby={HEADING_ID}>
      <h2 id={HEADING_ID} className={styles.heading}>
        While you wait
      </h2>
      <div className={styles.card} aria-labelledby={CARD_HEADING_ID} role="group">
        {question ? (
          <>
            <p className={styles.counter}>
              Question {position + 1} of {CROSS_SELL_QUESTIONS.length}
            </p>
            <h3 id={CARD_HEADING_ID} ref={cardHeading} tabIndex={-1} className={styles.question}>
              {CROSS_SELL_CARDS[question].question}
            </h3>
            <p className={styles.detail}>{CROSS_SELL_CARDS[question].detail}</p>
            <div className={styles.actions}>
              {question === 'card-offers' ? (
                <a
                  className={styles.yesLink}
                  href={CARD_OFFERS_URL}
                  target="_blank"
                  rel="noopener noreferrer"
                  onClick={() => answer('yes')}
                >
                  Yes<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              ) : (
                <Button onClick={() => answer('yes')}>Yes</Button>
              )}
              <Button variant="secondary" onClick={() => answer('no')}>
                No
              </Button>
            </div>
          </>
        ) : (
          <>
            <h3 id={CARD_HEADING_ID} ref={cardHeading} tabIndex={-1} className={styles.question}>
              Thank you!
            </h3>
            <p className={styles.detail}>
              Thanks for your answers. Keep this window open while we connect you with a lender.
            </p>
            <div className={styles.actions}>
              <Button onClick={onClose}>Got it</Button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

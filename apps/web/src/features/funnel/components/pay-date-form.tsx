import { useState } from 'react';
import { isSelectablePayDate, payDateWindow } from '@funnel/contracts/rules/pay-dates';
import { businessToday } from '@/lib/business-today';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';
import { PayDateCalendar, formatLongDate } from './pay-date-calendar';
import { StepScreen, stepHeadingId } from './step-screen';
import styles from './pay-date-form.module.css';

/**
 * The next pay date, picked on a calendar from today to 30 days ahead; weekends and US federal bank holidays
 * cannot be picked (contracts' pay-date rules, the same the BFF applies). `greeting` welcomes a returning visitor
 * by first name (/nextpaydatesort).
 */
export function PayDateForm({ greeting = false }: { greeting?: boolean }) {
  const form = useStepForm('nextpaydate');
  const [today] = useState(businessToday);
  const [date, setDate] = useState(() => savedText(form.lead.answers.incomeNextDate1) || undefined);
  const { first, last } = payDateWindow(today);
  const firstName = savedText(form.lead.answers.firstName);

  return (
    <StepScreen
      step="nextpaydate"
      form={form}
      onSubmit={() => form.submit({ incomeNextDate1: date ?? '' })}
      before={
        greeting && firstName ? <p className={styles.greeting}>Welcome back, {firstName}!</p> : undefined
      }
    >
      <p id="pay-date-hint" className={styles.hint}>
        Pick a business day from today to {formatLongDate(last)}. Weekends and bank holidays are not
        available.
      </p>
      <PayDateCalendar
        id="incomeNextDate1"
        value={date}
        onChange={(day) => {
          setDate(day);
          form.clearError('incomeNextDate1');
        }}
        first={first}
        last={last}
        isSelectable={(day) => isSelectablePayDate(day, today)}
        labelledBy={stepHeadingId('nextpaydate')}
        hintId="pay-date-hint"
        error={form.errors.incomeNextDate1}
      />
      <p className={styles.selected} aria-live="polite">
        {date ? `Selected: ${formatLongDate(date)}` : 'No date selected yet.'}
      </p>
    </StepScreen>
  );
}

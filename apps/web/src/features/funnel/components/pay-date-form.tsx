import { useState } from 'react';
import {
  lastSelectablePayDate,
  payDateWindow,
  unavailablePayDateReason,
} from '@funnel/contracts/rules/pay-dates';
import { FormField } from '@/components/form/form-field';
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
  const form = useStepForm<{ incomeNextDate1: string }>('nextpaydate', {
    defaultValues: ({ answers }) => ({ incomeNextDate1: savedText(answers.incomeNextDate1) }),
  });
  const [today] = useState(businessToday);
  const { first, last } = payDateWindow(today);
  // The window's last day may be a weekend or a holiday: the hint names the last one that can be picked.
  const lastSelectable = lastSelectablePayDate(today);
  const firstName = savedText(form.lead.answers.firstName);

  return (
    <StepScreen
      step="nextpaydate"
      form={form}
      onSubmit={() => form.submitStep()}
      before={
        greeting && firstName ? <p className={styles.greeting}>Welcome back, {firstName}!</p> : undefined
      }
    >
      <p id="pay-date-hint" className={styles.hint}>
        Pick a business day from today to {formatLongDate(lastSelectable)}. Weekends and bank holidays are not
        available.
      </p>
      <FormField
        form={form.form}
        name="incomeNextDate1"
        render={(field) => (
          <>
            <PayDateCalendar
              id={field.id}
              value={field.value || undefined}
              onChange={field.onValueChange}
              today={today}
              first={first}
              last={last}
              whyUnavailable={(day) => unavailablePayDateReason(day, today)}
              labelledBy={stepHeadingId('nextpaydate')}
              hintId="pay-date-hint"
              error={field.error}
            />
            <p className={styles.selected} aria-live="polite">
              {field.value ? `Selected: ${formatLongDate(field.value)}` : 'No date selected yet.'}
            </p>
          </>
        )}
      />
    </StepScreen>
  );
}

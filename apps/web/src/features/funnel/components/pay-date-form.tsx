import {
  lastSelectablePayDate,
  payDateWindow,
  unavailablePayDateReason,
} from '@funnel/contracts/rules/pay-dates';
import { FormField } from '@/components/form/form-field';
import { useBusinessToday } from '@/hooks/use-business-today';
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
  // Unknown on the prerendered page and until the configuration arrives: the calendar's place is kept meanwhile.
  const today = useBusinessToday();
  const firstName = savedText(form.lead.answers.firstName);

  return (
    <StepScreen
      step="nextpaydate"
      form={form}
      onSubmit={() => form.submitStep()}
      before={
        // Drawn before the lead arrives too (the name fills in on the same line): no shift when it does.
        greeting ? (
          <p className={styles.greeting}>{firstName ? `Welcome back, ${firstName}!` : 'Welcome back!'}</p>
        ) : undefined
      }
    >
      <p id="pay-date-hint" className={styles.hint}>
        {/* The window's last day may be a weekend or a holiday: the hint names the last one that can be picked. */}
        Pick a business day from today to{' '}
        {today ? formatLongDate(lastSelectablePayDate(today)) : 'a month from now'}. Weekends and bank
        holidays are not available.
      </p>
      <FormField
        form={form.form}
        name="incomeNextDate1"
        render={(field) => (
          <>
            {today ? (
              <PayDateCalendar
                id={field.id}
                value={field.value || undefined}
                onChange={field.onValueChange}
                today={today}
                first={payDateWindow(today).first}
                last={payDateWindow(today).last}
                whyUnavailable={(day) => unavailablePayDateReason(day, today)}
                labelledBy={stepHeadingId('nextpaydate')}
                hintId="pay-date-hint"
                error={field.error}
              />
            ) : (
              <div className={styles.calendarSlot} />
            )}
            <p className={styles.selected} aria-live="polite">
              {field.value ? `Selected: ${formatLongDate(field.value)}` : 'No date selected yet.'}
            </p>
          </>
        )}
      />
    </StepScreen>
  );
}

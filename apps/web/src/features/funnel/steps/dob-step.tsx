import { useState } from 'react';
import { fieldErrors } from '@funnel/contracts/errors';
import { DOB_MONTHS, dobDayOptions, dobYearOptions } from '@funnel/contracts/options';
import { createDobPartsSchema } from '@funnel/contracts/steps';
import { FieldError } from '@/components/form/field-error';
import { FormField } from '@/components/form/form-field';
import { SelectField } from '@/components/form/select-field';
import { FieldRejection } from '@/components/form/schema-resolver';
import { useBusinessToday } from '@/hooks/use-business-today';
import { businessToday } from '@/lib/business-today';
import { SavedAnswer } from '../components/saved-answer';
import { StepScreen, stepHeadingId } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { reconcileDay, type DobParts } from '../utils/dob-parts';
import styles from './dob-step.module.css';

/** The three selects, and the whole date the messages about it (under 18, not a real date) belong to. */
interface DobValues extends DobParts {
  dob: string;
}

/**
 * Date of birth as three selects (spec §5): the day list follows the month and year, the year list starts at the
 * latest year that makes someone 18 today and counts back 100 years, and each select opens once the one before
 * it is chosen.
 */
export default function DobStep() {
  // Unknown only before the configuration arrives; Next waits for it (useStepForm), so the year list is there.
  const today = useBusinessToday();
  const form = useStepForm<DobValues>('dob', {
    defaultValues: () => ({ month: '', day: '', year: '', dob: '' }),
    toAnswers({ month, day, year }) {
      const parsed = createDobPartsSchema(today ?? businessToday()).safeParse({ month, day, year });
      return parsed.success ? { dob: parsed.data } : new FieldRejection(fieldErrors(parsed.error));
    },
  });
  const [replacing, setReplacing] = useState(false);
  const onFile = form.lead.masked.dob !== undefined && !replacing;
  const [month, day, year] = form.form.watch(['month', 'day', 'year']);
  const days = month ? dobDayOptions(Number(month), year ? Number(year) : undefined) : [];
  const dobError = form.form.formState.errors.dob?.message;

  /** After the month or the year changed: a day they no longer have is cleared, with the reason. */
  function keepDayValid(parts: DobParts) {
    const next = reconcileDay(parts);
    if (next.day === parts.day) return;
    form.form.setValue('day', next.day);
    if (next.error) form.form.setError('day', { type: 'rule', message: next.error });
  }

  return (
    <StepScreen step="dob" form={form} onSubmit={() => (onFile ? form.keepSaved() : form.submitStep())}>
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different date of birth" onReplace={() => setReplacing(true)}>
          We have your date of birth on file.
        </SavedAnswer>
      ) : (
        <div
          role="group"
          aria-labelledby={stepHeadingId('dob')}
          aria-describedby={dobError ? 'dob-error' : undefined}
        >
          <div className={styles.selects}>
            <FormField
              form={form.form}
              name="month"
              clears={['dob']}
              render={(field) => (
                <SelectField
                  {...field}
                  label="Month"
                  placeholder="Month"
                  options={DOB_MONTHS}
                  onValueChange={(value) => {
                    field.onValueChange(value);
                    keepDayValid({ month: value, day, year });
                  }}
                  autoComplete="bday-month"
                  autoFocus={replacing}
                />
              )}
            />
            <FormField
              form={form.form}
              name="day"
              clears={['dob']}
              render={(field) => (
                <SelectField
                  {...field}
                  label="Day"
                  placeholder="Day"
                  options={days}
                  disabled={!month}
                  autoComplete="bday-day"
                />
              )}
            />
            <FormField
              form={form.form}
              name="year"
              clears={['dob']}
              render={(field) => (
                <SelectField
                  {...field}
                  label="Year"
                  placeholder="Year"
                  options={today ? dobYearOptions(today) : []}
                  onValueChange={(value) => {
                    field.onValueChange(value);
                    keepDayValid({ month, day, year: value });
                  }}
                  disabled={!day && !year}
                  autoComplete="bday-year"
                />
              )}
            />
          </div>
          <FieldError id="dob-error" message={dobError} />
        </div>
      )}
    </StepScreen>
  );
}

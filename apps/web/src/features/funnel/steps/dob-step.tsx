import { useState } from 'react';
import { fieldErrors } from '@funnel/contracts/errors';
import { DOB_MONTHS, dobDayOptions, dobYearOptions } from '@funnel/contracts/options';
import { createDobPartsSchema } from '@funnel/contracts/steps';
import { FieldError } from '@/components/form/field-error';
import { SelectField } from '@/components/form/select-field';
import { businessToday } from '@/lib/business-today';
import { SavedAnswer } from '../components/saved-answer';
import { StepScreen, stepHeadingId } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import styles from './dob-step.module.css';

/**
 * Date of birth as three selects (spec §5): the day list follows the month, the year list counts back 100 years
 * from this year, and each select opens once the one before it is chosen.
 */
export default function DobStep() {
  const form = useStepForm('dob', ['month', 'day', 'year']);
  const [today] = useState(businessToday);
  const [replacing, setReplacing] = useState(false);
  const [month, setMonth] = useState('');
  const [day, setDay] = useState('');
  const [year, setYear] = useState('');
  const onFile = form.lead.masked.dob !== undefined && !replacing;
  const days = month ? dobDayOptions(Number(month), year ? Number(year) : undefined) : [];

  function submit() {
    if (onFile) {
      form.keepSaved();
      return;
    }
    const parts = createDobPartsSchema(today).safeParse({ month, day, year });
    if (!parts.success) {
      form.reject(fieldErrors(parts.error));
      return;
    }
    form.submit({ dob: parts.data });
  }

  function choose(part: 'month' | 'day' | 'year', value: string) {
    form.clearError(part);
    form.clearError('dob');
    if (part === 'month') {
      setMonth(value);
      // The day needs a month, and a day the new month lacks (the 31st of April) has to be chosen again.
      if (!value || Number(day) > dobDayOptions(Number(value)).length) setDay('');
    } else if (part === 'day') {
      setDay(value);
    } else {
      setYear(value);
    }
  }

  return (
    <StepScreen step="dob" form={form} onSubmit={submit}>
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different date of birth" onReplace={() => setReplacing(true)}>
          We have your date of birth on file.
        </SavedAnswer>
      ) : (
        <div
          role="group"
          aria-labelledby={stepHeadingId('dob')}
          aria-describedby={form.errors.dob ? 'dob-error' : undefined}
        >
          <div className={styles.selects}>
            <SelectField
              id="month"
              label="Month"
              placeholder="Month"
              options={DOB_MONTHS}
              value={month}
              onValueChange={(value) => choose('month', value)}
              error={form.errors.month}
              autoComplete="bday-month"
              autoFocus={replacing}
            />
            <SelectField
              id="day"
              label="Day"
              placeholder="Day"
              options={days}
              value={day}
              onValueChange={(value) => choose('day', value)}
              error={form.errors.day}
              disabled={!month}
              autoComplete="bday-day"
            />
            <SelectField
              id="year"
              label="Year"
              placeholder="Year"
              options={dobYearOptions(today)}
              value={year}
              onValueChange={(value) => choose('year', value)}
              error={form.errors.year}
              disabled={!day}
              autoComplete="bday-year"
            />
          </div>
          <FieldError id="dob-error" message={form.errors.dob} />
        </div>
      )}
    </StepScreen>
  );
}

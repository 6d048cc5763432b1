import type { LeadSummary } from '@funnel/contracts/api';
import { DEFAULT_LOAN_AMOUNT, LOAN_AMOUNTS } from '@funnel/contracts/options';
import { FormField } from '@/components/form/form-field';
import { SelectField } from '@/components/form/select-field';
import { StepScreen } from '../components/step-screen';
import { SuggestField } from '../components/suggest-field';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

interface NameValues {
  amount: string;
  firstName: string;
  lastName: string;
}

function asksAmountOf(lead: LeadSummary): boolean {
  return lead.answers.amount === undefined;
}

/**
 * First and last name. A lead created from a deep link has a loan reason but no amount, so the amount is asked
 * here in that case (spec §2).
 */
export default function LgnameStep() {
  const form = useStepForm<NameValues>('lgname', {
    defaultValues: ({ answers }) => ({
      amount: String(DEFAULT_LOAN_AMOUNT),
      firstName: savedText(answers.firstName),
      lastName: savedText(answers.lastName),
    }),
    toAnswers: ({ amount, firstName, lastName }, lead) => ({
      firstName,
      lastName,
      ...(asksAmountOf(lead) ? { amount: Number(amount) } : {}),
    }),
  });
  // Not before the lead is known: most leads have an amount, so the prerendered page leaves the question out.
  const asksAmount = form.leadLoaded && asksAmountOf(form.lead);

  return (
    <StepScreen step="lgname" form={form} onSubmit={() => form.submitStep()}>
      {asksAmount && (
        <FormField
          form={form.form}
          name="amount"
          render={(field) => <SelectField {...field} label="How much do you need?" options={LOAN_AMOUNTS} />}
        />
      )}
      <FormField
        form={form.form}
        name="firstName"
        render={(field) => (
          <SuggestField {...field} label="First name" suggest="first_name" autoComplete="given-name" />
        )}
      />
      <FormField
        form={form.form}
        name="lastName"
        render={(field) => (
          <SuggestField {...field} label="Last name" suggest="last_name" autoComplete="family-name" />
        )}
      />
    </StepScreen>
  );
}

import { FormField } from '@/components/form/form-field';
import { StepScreen } from '../components/step-screen';
import { SuggestField } from '../components/suggest-field';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/** Employer and job title, each with suggestions from the BFF's reference lists. */
export default function EmpinforStep() {
  const form = useStepForm<{ employerName: string; jobTitle: string }>('empinfor', {
    defaultValues: ({ answers }) => ({
      employerName: savedText(answers.employerName),
      jobTitle: savedText(answers.jobTitle),
    }),
  });
  return (
    <StepScreen step="empinfor" form={form} onSubmit={() => form.submitStep()}>
      <FormField
        form={form.form}
        name="employerName"
        render={(field) => (
          <SuggestField
            {...field}
            label="Employer name"
            hint="If you are self-employed, enter your business name."
            suggest="employer"
            autoComplete="organization"
          />
        )}
      />
      <FormField
        form={form.form}
        name="jobTitle"
        render={(field) => (
          <SuggestField {...field} label="Job title" suggest="job_title" autoComplete="organization-title" />
        )}
      />
    </StepScreen>
  );
}

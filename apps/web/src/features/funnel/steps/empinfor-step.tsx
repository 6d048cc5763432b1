import { useState } from 'react';
import { StepScreen } from '../components/step-screen';
import { SuggestField } from '../components/suggest-field';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/** Employer and job title, each with suggestions from the BFF's reference lists. */
export default function EmpinforStep() {
  const form = useStepForm('empinfor');
  const [employerName, setEmployerName] = useState(() => savedText(form.lead.answers.employerName));
  const [jobTitle, setJobTitle] = useState(() => savedText(form.lead.answers.jobTitle));
  return (
    <StepScreen step="empinfor" form={form} onSubmit={() => form.submit({ employerName, jobTitle })}>
      <SuggestField
        id="employerName"
        label="Employer name"
        hint="If you are self-employed, enter your business name."
        suggest="employer"
        autoComplete="organization"
        value={employerName}
        onValueChange={(value) => {
          setEmployerName(value);
          form.clearError('employerName');
        }}
        error={form.errors.employerName}
      />
      <SuggestField
        id="jobTitle"
        label="Job title"
        suggest="job_title"
        autoComplete="organization-title"
        value={jobTitle}
        onValueChange={(value) => {
          setJobTitle(value);
          form.clearError('jobTitle');
        }}
        error={form.errors.jobTitle}
      />
    </StepScreen>
  );
}

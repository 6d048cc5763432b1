import { useRef, useState } from 'react';
import type { ClientAnswers } from '@funnel/contracts/steps';
import { Combobox } from '@/components/form/combobox';
import { FormField } from '@/components/form/form-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';
import { emailSuggestions } from '../utils/email-suggestions';

/**
 * Where loan request updates go. Domains are suggested once '@' is typed, and an address newly typed here is
 * shown back for a double check before it is saved (spec §2): a typo would lose every update.
 */
export default function EmailStep() {
  const form = useStepForm<{ email: string }>('email', {
    defaultValues: ({ answers }) => ({ email: savedText(answers.email) }),
  });
  const saved = savedText(form.lead.answers.email);
  const [pending, setPending] = useState<ClientAnswers>();
  const inputRef = useRef<HTMLInputElement>(null);

  return (
    <StepScreen
      step="email"
      form={form}
      onSubmit={() =>
        form.submitStep((answers) => {
          if (answers.email === saved) form.save(answers);
          else setPending(answers);
        })
      }
    >
      <FormField
        form={form.form}
        name="email"
        render={(field) => (
          <Combobox
            {...field}
            ref={(element) => {
              field.ref(element);
              inputRef.current = element;
            }}
            label="Email address"
            hint="We will only use it to send you updates about your loan request."
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            autoCapitalize="none"
            suggestions={emailSuggestions(field.value)}
          />
        )}
      />
      <Dialog
        open={pending !== undefined}
        title="Is your email address correct?"
        onClose={() => setPending(undefined)}
        finalFocusRef={inputRef}
        actions={
          <>
            <Button variant="secondary" onClick={() => setPending(undefined)}>
              Edit
            </Button>
            <Button
              onClick={() => {
                if (!pending) return;
                setPending(undefined);
                form.save(pending);
              }}
            >
              Confirm
            </Button>
          </>
        }
      >
        <p>We will send your loan request updates to:</p>
        <p>
          <strong>{savedText(pending?.email)}</strong>
        </p>
      </Dialog>
    </StepScreen>
  );
}

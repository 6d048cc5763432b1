import { useRef, useState } from 'react';
import type { ClientAnswers } from '@funnel/contracts/steps';
import { Combobox } from '@/components/form/combobox';
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
  const form = useStepForm('email');
  const saved = savedText(form.lead.answers.email);
  const [email, setEmail] = useState(saved);
  const [pending, setPending] = useState<ClientAnswers>();
  const inputRef = useRef<HTMLInputElement>(null);

  function submit() {
    if (form.busy) return;
    const answers = form.validate({ email });
    if (!answers) return;
    if (answers.email === saved) form.save(answers);
    else setPending(answers);
  }

  return (
    <StepScreen step="email" form={form} onSubmit={submit}>
      <Combobox
        ref={inputRef}
        id="email"
        label="Email address"
        hint="We will only use it to send you updates about your loan request."
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        autoCapitalize="none"
        value={email}
        onValueChange={(value) => {
          setEmail(value);
          form.clearError('email');
        }}
        suggestions={emailSuggestions(email)}
        error={form.errors.email}
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

import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { useSignIn } from '../api/operator-session';
import styles from './operator.module.css';

function messageOf(error: Error): string {
  if (error instanceof ApiRequestError && error.status !== 0 && error.status < 500) return error.message;
  return 'Signing in failed: the server could not be reached. Please try again.';
}

/**
 * The operator token is posted once and never kept by the page: the BFF answers with an HttpOnly operator
 * cookie (ADR 0010).
 */
export function SignInForm() {
  const [token, setToken] = useState('');
  const [missing, setMissing] = useState(false);
  const signIn = useSignIn();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    signIn.mutate(token.trim());
  }

  const error = missing ? 'Enter the operator token.' : signIn.error ? messageOf(signIn.error) : undefined;
  return (
    <section className={styles.signIn} aria-labelledby="operator-sign-in">
      <PageHeading id="operator-sign-in" documentTitle="Operator sign-in">
        Operator sign-in
      </PageHeading>
      <p className={styles.lead}>Sign in with the operator token to see the funnel and sales reports.</p>
      <form onSubmit={submit} noValidate>
        <TextField
          id="operator-token"
          label="Operator token"
          type="password"
          autoComplete="current-password"
          spellCheck={false}
          value={token}
          onValueChange={setToken}
          error={error}
        />
        <Button type="submit" busy={signIn.isPending} busyLabel="Signing in…" wide>
          Sign in
        </Button>
      </form>
    </section>
  );
}

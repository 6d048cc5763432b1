import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { useSignIn } from '../api/operator-session';
import { CodeField } from './code-field';
import styles from './operator.module.css';

export function messageOf(error: Error): string {
  if (error instanceof ApiRequestError && error.status !== 0 && error.status < 500) return error.message;
  return 'The server could not be reached. Please try again.';
}

/**
 * Sign-in with the operator's own account: email and password, then the code of their authenticator app when a
 * second factor is enrolled (the BFF asks for it with `fields.code`). The session cookie is HttpOnly (ADR 0021).
 */
export function SignInForm({ oidc, provider }: { oidc: boolean; provider?: string | undefined }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [missing, setMissing] = useState<string | undefined>();
  const signIn = useSignIn();
  const [params] = useSearchParams();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setMissing('Enter your email and password.');
      return;
    }
    setMissing(undefined);
    signIn.mutate(
      { email: email.trim(), password, ...(askCode && code.trim() ? { code: code.trim() } : {}) },
      {
        onError: (error) => {
          if (error instanceof ApiRequestError && error.fields.code) setAskCode(true);
        },
      },
    );
  }

  const failure = signIn.error instanceof ApiRequestError ? signIn.error : undefined;
  const codeError = askCode && failure?.fields.code ? failure.fields.code : undefined;
  const error = missing ?? (signIn.error && !codeError ? messageOf(signIn.error) : undefined);
  return (
    <section className={styles.signIn} aria-labelledby="operator-sign-in">
      <PageHeading id="operator-sign-in" documentTitle="Operator sign-in">
        Operator sign-in
      </PageHeading>
      <p className={styles.lead}>Sign in with your own operator account.</p>
      <form onSubmit={submit} noValidate>
        <TextField
          id="operator-email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onValueChange={setEmail}
        />
        <TextField
          id="operator-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          error={error}
        />
        {askCode && (
          <CodeField
            id="operator-code"
            label="Code from your authenticator app"
            value={code}
            onValueChange={setCode}
            error={codeError}
          />
        )}
        <Button type="submit" busy={signIn.isPending} busyLabel="Signing in…" wide>
          Sign in
        </Button>
      </form>
      {oidc && params.get('signIn') === 'refused' && (
        <p className={styles.failed} role="alert">
          Your organisation’s account was not let in: it is in no group with a console role, or it is disabled
          here.
        </p>
      )}
      {oidc && (
        <p className={styles.alternative}>
          <a href="/api/v1/admin/oidc/start">Sign in with {provider ?? 'your organisation’s account'}</a>
        </p>
      )}
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { useSignIn } from '../api/operator-session';
import { CodeField } from './code-field';
import { LinkAccountForm } from './link-account-form';
import styles from './operator.module.css';

export function messageOf(error: Error): string {
  if (error instanceof ApiRequestError && error.status !== 0 && error.status < 500) return error.message;
  return 'The server could not be reached. Please try again.';
}

/**
 * Sign-in with the operator's own account: email, password and, when a second factor is enrolled, the code of
 * their authenticator app or a recovery code. The BFF answers the same for anything wrong, so the code field is
 * always there (ADR 0023). The session cookie is HttpOnly (ADR 0021). Back from the identity provider with
 * `?signIn=link`, the person first proves the console account their email names.
 */
export function SignInForm({ oidc, provider }: { oidc: boolean; provider?: string | undefined }) {
  const [params] = useSearchParams();
  if (oidc && params.get('signIn') === 'link') return <LinkAccountForm provider={provider} />;
  return <PasswordSignIn oidc={oidc} provider={provider} refused={params.get('signIn') === 'refused'} />;
}

function PasswordSignIn({
  oidc,
  provider,
  refused,
}: {
  oidc: boolean;
  provider: string | undefined;
  refused: boolean;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState<string | undefined>();
  const signIn = useSignIn();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setMissing('Enter your email and password.');
      return;
    }
    setMissing(undefined);
    signIn.mutate({ email: email.trim(), password, ...(code.trim() ? { code: code.trim() } : {}) });
  }

  const error = missing ?? (signIn.error ? messageOf(signIn.error) : undefined);
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
        <CodeField
          id="operator-code"
          label="Code from your authenticator app"
          hint="Once you have set up a second factor. Lost your phone? Enter one of your recovery codes."
          recovery
          value={code}
          onValueChange={setCode}
          error={undefined}
        />
        <Button type="submit" busy={signIn.isPending} busyLabel="Signing in…" wide>
          Sign in
        </Button>
      </form>
      {oidc && refused && (
        <p className={styles.failed} role="alert">
          Your organisation’s account was not let in: it is in no group with a console role, it is disabled
          here, or its email names a console account it may not open.
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

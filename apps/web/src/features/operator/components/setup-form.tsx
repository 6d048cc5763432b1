import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { useMutation } from '@tanstack/react-query';
import { completeSetup } from '../api/operator-session';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

/**
 * `/operator/setup#<token>`: the one-time set-up link of a new account. The token is in the fragment, which the
 * browser never sends to a server, so it is in no access log; the person chooses their own password here.
 */
export function SetupForm() {
  const [token] = useState(() => window.location.hash.slice(1));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const setup = useMutation({ mutationFn: completeSetup });

  function submit(event: FormEvent) {
    event.preventDefault();
    const issue =
      password.length < 12
        ? 'Use at least 12 characters.'
        : password !== again
          ? 'The two passwords differ.'
          : undefined;
    setProblem(issue);
    if (!issue) setup.mutate({ token, password });
  }

  return (
    <section className={styles.signIn} aria-labelledby="operator-setup">
      <PageHeading id="operator-setup" documentTitle="Set up your operator account">
        Set up your account
      </PageHeading>
      {setup.isSuccess ? (
        <p role="status">
          Your password is set. <Link to="/operator">Sign in</Link>, then add a second factor under Security.
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <p className={styles.lead}>
            Choose a password of at least 12 characters that is hard to guess: a phrase of several unrelated
            words works well. This link works once.
          </p>
          <TextField
            id="setup-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onValueChange={setPassword}
          />
          <TextField
            id="setup-again"
            label="The same password again"
            type="password"
            autoComplete="new-password"
            value={again}
            onValueChange={setAgain}
            error={problem ?? (setup.error ? messageOf(setup.error) : undefined)}
          />
          <Button type="submit" busy={setup.isPending} busyLabel="Saving…" wide>
            Set password
          </Button>
        </form>
      )}
    </section>
  );
}

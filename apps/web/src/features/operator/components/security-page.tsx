import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { OperatorMe } from '@funnel/contracts/operators';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { startSecondFactor, useConfirmSecondFactor, useSignOutEverywhere } from '../api/operator-session';
import { messageOf } from './sign-in-form';
import { CodeField } from './code-field';
import styles from './operator.module.css';

/** The signed-in operator's own security: a TOTP second factor, and signing out of every browser at once. */
export function SecurityPage({ me }: { me: OperatorMe }) {
  const start = useMutation({ mutationFn: startSecondFactor });
  const confirm = useConfirmSecondFactor();
  const everywhere = useSignOutEverywhere();
  const [code, setCode] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    confirm.mutate(code.trim());
  }
  const codeError =
    confirm.error instanceof ApiRequestError
      ? (confirm.error.fields.code ?? messageOf(confirm.error))
      : undefined;

  return (
    <>
      <PageHeading id="operator-security" documentTitle="Security">
        Security
      </PageHeading>
      <section className={styles.section} aria-labelledby="second-factor">
        <h2 id="second-factor">Second factor</h2>
        {me.secondFactor ? (
          <p>Sign-in asks for a code from your authenticator app.</p>
        ) : start.data ? (
          <form onSubmit={submit} noValidate>
            <p>
              Add this key to your authenticator app (or open <a href={start.data.otpauthUri}>this link</a> on
              your phone), then enter the code it shows.
            </p>
            <p className={styles.secret} aria-label="Key">
              {start.data.secret}
            </p>
            <CodeField id="totp-code" label="Code" value={code} onValueChange={setCode} error={codeError} />
            <Button type="submit" busy={confirm.isPending} busyLabel="Checking…">
              Turn on
            </Button>
          </form>
        ) : (
          <>
            <p>Without one, your password alone opens the console.</p>
            <Button busy={start.isPending} busyLabel="Starting…" onClick={() => start.mutate()}>
              Add a second factor
            </Button>
          </>
        )}
      </section>
      <section className={styles.section} aria-labelledby="sessions">
        <h2 id="sessions">Sessions</h2>
        <p>Signed in on a computer you no longer have? End every session of your account.</p>
        <Button variant="secondary" busy={everywhere.isPending} onClick={() => everywhere.mutate(undefined)}>
          Sign out everywhere
        </Button>
      </section>
    </>
  );
}

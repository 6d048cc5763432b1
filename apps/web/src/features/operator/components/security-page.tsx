import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { OperatorMe } from '@funnel/contracts/operators';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import {
  confirmSecondFactor,
  startSecondFactor,
  useSessionReread,
  useSignOutEverywhere,
} from '../api/operator-session';
import { messageOf } from './sign-in-form';
import { CodeField } from './code-field';
import { RecoveryCodesList } from './recovery-codes-list';
import styles from './operator.module.css';

/**
 * The signed-in operator's own security: a TOTP second factor (a QR code to scan, then ten recovery codes shown
 * once), and signing out of every browser at once. With `required`, the account's role needs the factor before
 * the rest of the console opens (ADR 0023).
 */
export function SecurityPage({ me, required = false }: { me: OperatorMe; required?: boolean }) {
  const start = useMutation({ mutationFn: startSecondFactor });
  const confirm = useMutation({ mutationFn: confirmSecondFactor });
  const reread = useSessionReread();
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

  let secondFactor;
  if (confirm.data) {
    secondFactor = (
      <>
        <p role="status">
          Your second factor is on. Sign-in now asks for a code from your authenticator app.
        </p>
        <RecoveryCodesList codes={confirm.data.recoveryCodes} />
        <Button
          busy={reread.isPending}
          onClick={() => reread.mutate(undefined, { onSuccess: () => confirm.reset() })}
        >
          I have saved them
        </Button>
      </>
    );
  } else if (me.secondFactor) {
    secondFactor = <p>Sign-in asks for a code from your authenticator app.</p>;
  } else if (start.data) {
    secondFactor = (
      <form onSubmit={submit} noValidate>
        <p>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
        {/* SVG drawn by the BFF from the otpauth URI (qrcode): markup of our own server, never user input. */}
        <div
          className={styles.qrCode}
          role="img"
          aria-label="QR image to scan with your authenticator app"
          dangerouslySetInnerHTML={{ __html: start.data.qrSvg }}
        />
        <p>Cannot scan it? Type this key into the app instead:</p>
        <p className={styles.secret} aria-label="Key">
          {start.data.secret}
        </p>
        <CodeField id="totp-code" label="Code" value={code} onValueChange={setCode} error={codeError} />
        <Button type="submit" busy={confirm.isPending} busyLabel="Checking…">
          Turn on
        </Button>
      </form>
    );
  } else {
    secondFactor = (
      <>
        <p>
          {required
            ? 'Your role needs a second factor: add one to open the console.'
            : 'Without one, your password alone opens the console.'}
        </p>
        <Button busy={start.isPending} busyLabel="Starting…" onClick={() => start.mutate()}>
          Add a second factor
        </Button>
      </>
    );
  }

  return (
    <>
      <PageHeading id="operator-security" documentTitle="Security">
        Security
      </PageHeading>
      <section className={styles.section} aria-labelledby="second-factor">
        <h2 id="second-factor">Second factor</h2>
        {secondFactor}
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

import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { useLinkOidcAccount } from '../api/operator-session';
import { CodeField } from './code-field';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

/**
 * Back from the identity provider with an email that names a console account (ADR 0023): its password and, when
 * it has one, its second factor prove it is this person's, once; from then on the provider signs them in.
 */
export function LinkAccountForm({ provider }: { provider: string | undefined }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const link = useLinkOidcAccount();

  function submit(event: FormEvent) {
    event.preventDefault();
    link.mutate({ password, ...(code.trim() ? { code: code.trim() } : {}) });
  }

  return (
    <section className={styles.signIn} aria-labelledby="operator-link">
      <PageHeading id="operator-link" documentTitle="Link your account">
        Link your account
      </PageHeading>
      <p className={styles.lead}>
        Your email at {provider ?? 'your organisation'} matches a console account. To link them, sign in to
        that account once; after that, {provider ?? 'your organisation'} signs you in.
      </p>
      <form onSubmit={submit} noValidate>
        <TextField
          id="link-password"
          label="Console password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          error={link.error ? messageOf(link.error) : undefined}
        />
        <CodeField
          id="link-code"
          label="Code from your authenticator app"
          hint="If the account has a second factor; or one of its recovery codes."
          recovery
          value={code}
          onValueChange={setCode}
          error={undefined}
        />
        <Button type="submit" busy={link.isPending} busyLabel="Linking…" wide>
          Link and sign in
        </Button>
      </form>
    </section>
  );
}

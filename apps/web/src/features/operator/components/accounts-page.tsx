import { useState, type FormEvent } from 'react';
import type {
  CreatedOperatorAccount,
  OperatorAccount,
  OperatorMe,
  OperatorRole,
} from '@funnel/contracts/operators';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ApiRequestError } from '@/lib/api-request-error';
import { useAccounts, useChangeAccount, useCreateAccount, useResetAccount } from '../api/accounts';
import { ReportTable, type ReportColumn } from './report-table';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

const ROLE_OPTIONS = [
  { value: 'viewer', label: 'Viewer: reports' },
  { value: 'manager', label: 'Manager: + buyers and returns' },
  { value: 'admin', label: 'Admin: + accounts, deletion, personal data' },
] as const;

/** The one-time link of a new or reset account, to hand to its owner. */
function SetupLinkNotice({ created }: { created: CreatedOperatorAccount | undefined }) {
  if (!created) return null;
  return (
    <p role="status" className={styles.setupLink}>
      Send {created.account.email} this one-time link (valid 24 hours) to choose a password:{' '}
      <code>{`${window.location.origin}${created.setupPath}`}</code>
    </p>
  );
}

function NewAccountForm() {
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  const create = useCreateAccount();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ email: email.trim(), displayName: displayName.trim(), role });
  }
  const fields = create.error instanceof ApiRequestError ? create.error.fields : {};
  return (
    <section className={styles.section} aria-labelledby="new-account">
      <h2 id="new-account">New account</h2>
      <form className={styles.filters} onSubmit={submit} noValidate aria-label="New account">
        <TextField
          id="account-email"
          label="Email"
          type="email"
          value={email}
          onValueChange={setEmail}
          error={fields.email}
        />
        <TextField
          id="account-name"
          label="Name"
          value={displayName}
          onValueChange={setDisplayName}
          error={fields.displayName ?? (create.error && !fields.email ? messageOf(create.error) : undefined)}
        />
        <SelectField
          id="account-role"
          label="Role"
          options={ROLE_OPTIONS}
          value={role}
          onValueChange={(value) => setRole(value as OperatorRole)}
        />
        <div className={styles.apply}>
          <Button type="submit" busy={create.isPending} busyLabel="Creating…">
            Create account
          </Button>
        </div>
      </form>
      <SetupLinkNotice created={create.data} />
    </section>
  );
}

/** `/operator/accounts` (admin): every operator account, its role and state, and new accounts. */
export function AccountsPage({ me }: { me: OperatorMe }) {
  const accounts = useAccounts();
  const change = useChangeAccount();
  const reset = useResetAccount();
  const failure = change.error ?? reset.error;
  const columns: ReportColumn<OperatorAccount>[] = [
    { label: 'Email', cell: (a) => a.email, text: true },
    { label: 'Name', cell: (a) => a.displayName, text: true },
    {
      label: 'Role',
      text: true,
      cell: (a) =>
        a.accountId === me.accountId ? (
          a.role
        ) : (
          <select
            aria-label={`Role of ${a.email}`}
            value={a.role}
            onChange={(event) =>
              change.mutate({ accountId: a.accountId, change: { role: event.target.value as OperatorRole } })
            }
          >
            {ROLE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.value}
              </option>
            ))}
          </select>
        ),
    },
    { label: 'Second factor', cell: (a) => (a.secondFactor ? 'Yes' : 'No'), text: true },
    {
      label: 'State',
      text: true,
      cell: (a) => (a.disabledAt ? 'Disabled' : a.hasPassword || a.oidc ? 'Active' : 'Set-up link sent'),
    },
    {
      label: 'Action',
      text: true,
      cell: (a) =>
        a.accountId === me.accountId ? (
          'You'
        ) : (
          <>
            <Button
              variant="link"
              onClick={() => change.mutate({ accountId: a.accountId, change: { disabled: !a.disabledAt } })}
            >
              {a.disabledAt ? `Enable ${a.email}` : `Disable ${a.email}`}
            </Button>{' '}
            <Button variant="link" onClick={() => reset.mutate(a.accountId)}>
              {`Reset ${a.email}`}
            </Button>
          </>
        ),
    },
  ];
  return (
    <>
      <PageHeading id="operator-accounts" documentTitle="Operator accounts">
        Accounts
      </PageHeading>
      <SetupLinkNotice created={reset.data} />
      {failure && (
        <p className={styles.failed} role="alert">
          {messageOf(failure)}
        </p>
      )}
      {accounts.error ? (
        // A role below admin (the BFF's 403) or no system of record: the message, and no action to try.
        <p className={styles.failed} role="alert">
          {messageOf(accounts.error)}
        </p>
      ) : (
        <>
          <section className={styles.section} aria-label="Accounts">
            <ReportTable
              id="accounts"
              caption="Operator accounts. Changing a role or disabling an account ends its sessions at once."
              columns={columns}
              rows={accounts.data?.accounts ?? []}
              rowKey={(a) => a.accountId}
              empty={accounts.isPending ? 'Loading…' : 'No accounts.'}
            />
          </section>
          <NewAccountForm />
        </>
      )}
    </>
  );
}

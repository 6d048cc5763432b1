import { useState, type FormEvent } from 'react';
import type { BuyerView } from '@funnel/contracts/buyer-admin';
import { SelectField } from '@/components/form/select-field';
import { Button } from '@/components/ui/button';
import { ApiRequestError } from '@/lib/api-request-error';
import { useSaveBuyer, useTestBuyer } from '../api/buyers';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

const NEW = '';

/** What the buyer answered the sample lead, or why it could not be sent. */
function TestAnswer({ test }: { test: ReturnType<typeof useTestBuyer> }) {
  if (test.error) {
    return (
      <p role="alert" className={styles.failed}>
        {messageOf(test.error)}
      </p>
    );
  }
  if (!test.data) return null;
  const { buyer, outcome, price, fieldErrors, message, latencyMs } = test.data;
  return (
    <p role="status">
      {buyer} answered the sample lead: {outcome}
      {price !== undefined ? ` at $${price}` : ''}
      {message ? ` (${message})` : ''} in {latencyMs} ms
      {fieldErrors && fieldErrors.length > 0 ? `; fields: ${fieldErrors.join('; ')}` : ''}.
    </p>
  );
}

/** A buyer's settings as the editor shows them: the buyers file's fields, never its credential. */
function settingsOf(buyer: BuyerView | undefined): string {
  if (!buyer)
    return '{\n  "id": "",\n  "protocol": "sync-post",\n  "baseUrl": "",\n  "tier": 1,\n  "priceLadder": [10]\n}';
  const { hasApiKey: _hasKey, paused: _paused, needsKey: _needsKey, ...settings } = buyer;
  return JSON.stringify(settings, null, 2);
}

/**
 * Edits one buyer's settings, or adds one, as the buyers file's JSON (ADR 0022): filters, states, caps, prices,
 * deadlines, concurrency, return terms. The credential is write-only: typed into its own field, never shown; left
 * empty, the buyer keeps the one it has while its address stays on the same origin (ADR 0024). The address and
 * the credential are an admin's to change. A refused change lists the server's messages and changes nothing.
 */
export function BuyerEditor({ buyers, version }: { buyers: readonly BuyerView[]; version: number }) {
  const [selected, setSelected] = useState(buyers[0]?.id ?? NEW);
  const buyer = buyers.find((b) => b.id === selected);
  const [text, setText] = useState(() => settingsOf(buyer));
  // A newer version (this save, or another manager's change) shows the chosen buyer as it now is, and keeps the
  // save's answer on screen: the manager sees "Saved as version N" rather than a form gone back to the first buyer.
  const [shownVersion, setShownVersion] = useState(version);
  if (version !== shownVersion) {
    setShownVersion(version);
    setText(settingsOf(buyer));
  }
  const [apiKey, setApiKey] = useState('');
  const [parseError, setParseError] = useState<string | undefined>();
  const save = useSaveBuyer();
  const test = useTestBuyer();

  function choose(id: string) {
    setSelected(id);
    setText(settingsOf(buyers.find((b) => b.id === id)));
    setApiKey('');
    setParseError(undefined);
    save.reset();
    test.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    let settings: Record<string, unknown>;
    try {
      settings = JSON.parse(text) as Record<string, unknown>;
    } catch {
      setParseError('The settings are not valid JSON.');
      return;
    }
    setParseError(undefined);
    save.mutate(
      { buyerId: buyer?.id, buyer: { ...settings, ...(apiKey ? { apiKey } : {}) } },
      { onSuccess: () => setApiKey('') },
    );
  }

  const fields = save.error instanceof ApiRequestError ? save.error.fields : {};
  const options = [...buyers.map((b) => ({ value: b.id, label: b.id })), { value: NEW, label: 'New buyer' }];
  return (
    <section className={styles.section} aria-labelledby="buyer-editor">
      <h2 id="buyer-editor">Edit a buyer</h2>
      <form onSubmit={submit} noValidate aria-label="Buyer settings" className={styles.editor}>
        <SelectField
          id="buyer-choice"
          label="Buyer"
          options={options}
          value={selected}
          onValueChange={choose}
        />
        <label htmlFor="buyer-settings">Settings (the buyers file’s JSON)</label>
        <textarea
          id="buyer-settings"
          rows={16}
          spellCheck={false}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={parseError || save.error ? 'buyer-errors' : undefined}
        />
        <label htmlFor="buyer-api-key">
          Credential (admins only){' '}
          {buyer?.needsKey
            ? '(needs its key: dropped when its address moved to another origin)'
            : buyer?.hasApiKey
              ? '(set; leave empty to keep it)'
              : '(none set)'}
        </label>
        <input
          id="buyer-api-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
        {(parseError || save.error) && (
          <div id="buyer-errors" role="alert" className={styles.failed}>
            <p>{parseError ?? messageOf(save.error!)}</p>
            {Object.keys(fields).length > 0 && (
              <ul>
                {Object.entries(fields).map(([field, message]) => (
                  <li key={field}>
                    <code>{field}</code>: {message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {save.data && (
          <p role="status">Saved as version {save.data.version}: every worker runs it within seconds.</p>
        )}
        <div className={styles.actions}>
          <Button type="submit" busy={save.isPending} busyLabel="Saving…">
            {buyer ? `Save ${buyer.id}` : 'Add buyer'}
          </Button>
          {buyer && (
            <Button
              variant="secondary"
              busy={test.isPending}
              busyLabel="Sending…"
              onClick={() => test.mutate(buyer.id)}
            >
              Send the sample lead
            </Button>
          )}
        </div>
        <TestAnswer test={test} />
      </form>
    </section>
  );
}

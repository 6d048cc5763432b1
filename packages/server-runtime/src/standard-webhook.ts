/**
 * Partner webhooks signed the Standard Webhooks way (https://www.standardwebhooks.com), so an integrator verifies
 * them with a ready library in their language (`standardwebhooks` on npm, PyPI, Go, Ruby, …) instead of code of
 * their own. Node-only: the worker signs; integrators and tests verify with the `standardwebhooks` package.
 *
 * Headers: `webhook-id` (the same for every retry of one event), `webhook-timestamp` (unix seconds of this
 * attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret, separated by
 * a space while a secret rotates). The secrets are Standard Webhooks secrets: base64, optionally `whsec_`-prefixed.
 */
import { Webhook } from 'standardwebhooks';

const WEBHOOK_ID_HEADER = 'webhook-id';
const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
const WEBHOOK_SIGNATURE_HEADER_STANDARD = 'webhook-signature';

/**
 * The three Standard Webhooks headers for `body`, event `id`, sent at `timestamp` (unix seconds), signed with
 * every secret in `secrets` (current first; at least one).
 */
export function standardWebhookHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  if (secrets.length === 0) throw new Error('a webhook needs at least one secret to be signed');
  const at = new Date(timestamp * 1000);
  return {
    [WEBHOOK_ID_HEADER]: id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER_STANDARD]: secrets
      .map((secret) => new Webhook(secret).sign(id, at, body))
      .join(' '),
  };
}

import { JORNAYA_TOKEN_FIELD, TRUSTEDFORM_CERT_FIELD } from '@funnel/contracts/consent-fields';
import type { Tracking } from '@funnel/contracts/tracking';

export type ConsentCertificates = Pick<Tracking, 'trustedFormUrl' | 'jornayaLeadId'>;

/**
 * The consent certificates TrustedForm's and Jornaya's scripts wrote into the hidden inputs of `scope` (the
 * landing form, or the page of the final button), read when the visitor presses the button. A value the contracts
 * refuse is left out rather than failing the visitor's request.
 */
export async function readConsentCertificates(scope: ParentNode = document): Promise<ConsentCertificates> {
  const candidates = {
    trustedFormUrl: inputValue(scope, TRUSTEDFORM_CERT_FIELD),
    jornayaLeadId: inputValue(scope, JORNAYA_TOKEN_FIELD),
  };
  // The schema (zod) loads with the first submission: the landing screen does not carry it.
  const { TrackingSchema } = await import('@funnel/contracts/tracking');
  const certificates: ConsentCertificates = {};
  for (const key of ['trustedFormUrl', 'jornayaLeadId'] as const) {
    const parsed = TrackingSchema.shape[key].safeParse(candidates[key]);
    if (parsed.success && parsed.data) certificates[key] = parsed.data;
  }
  return certificates;
}

function inputValue(scope: ParentNode, name: string): string | undefined {
  const value = scope.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value.trim();
  return value ? value : undefined;
}

import { TrackingSchema, type Tracking } from '@funnel/contracts/tracking';

/**
 * The consent certificates third-party scripts write into the landing form's hidden inputs when they run
 * (TrustedForm's certificate URL, Jornaya's LeadiD). A value that is not what the contracts accept is left out
 * rather than letting it fail the whole request.
 */
export function readConsentTokens(form: HTMLFormElement): Tracking | undefined {
  const data = new FormData(form);
  const candidates = {
    trustedFormUrl: data.get('xxTrustedFormCertUrl'),
    jornayaLeadId: data.get('universal_leadid'),
  };
  const tokens: Tracking = {};
  for (const [key, value] of Object.entries(candidates) as [
    keyof typeof candidates,
    FormDataEntryValue | null,
  ][]) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    const parsed = TrackingSchema.shape[key].safeParse(value.trim());
    if (parsed.success && parsed.data !== undefined) tokens[key] = parsed.data;
  }
  return Object.keys(tokens).length > 0 ? tokens : undefined;
}

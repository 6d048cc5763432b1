import { UnrecoverableError } from 'bullmq';
import { ZodError } from 'zod';
import { bandOf, type ScreeningBand } from '@funnel/contracts/screening';
import { TrackingSchema } from '@funnel/contracts/tracking';
import type { LeadRecord } from '@funnel/lead-store/lead-store';

/** Where a lead was submitted from (its consent evidence), as every buyer payload builder needs it. */
export function submissionContextOf(lead: LeadRecord) {
  const consent = lead.consent;
  if (!consent) throw new UnrecoverableError('submitted lead has no consent record');
  return {
    leadId: lead.id,
    tracking: TrackingSchema.parse(lead.tracking),
    userIp: consent.ip,
    userAgent: consent.userAgent,
    webSiteUrl: consent.pageUrl,
    ...(lead.fields.test_mode === true ? { testMode: true } : {}),
  };
}

/** Screening's band for the lead (ADR 0030): what a buyer is told of its verdict; none when not screened. */
export function qualityBandOf(lead: LeadRecord): ScreeningBand | undefined {
  const screening = lead.submission?.screening;
  return screening && bandOf(screening.score);
}

/** A lead that cannot make a payload is our fault, and retrying will not fix it. */
export function buildOrRefuse<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    const fields =
      error instanceof ZodError ? error.issues.map((i) => i.path.join('.')).join(', ') : String(error);
    throw new UnrecoverableError(`lead cannot be turned into a submission (${fields})`);
  }
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from './sample-lead.js';
import type { SubmittableLead } from './lender-network.js';
import {
  SyncPostPayloadSchema,
  SyncPostResponseSchema,
  buildSyncPostPayload,
  mapSyncPostErrors,
} from './sync-post-network.js';

const lead = SAMPLE_LEAD;
const context = SAMPLE_SUBMISSION_CONTEXT;
const attempt = { idempotencyKey: `${context.leadId}-2`, minimumPrice: 50, maxResponseSeconds: 25.7 };

const golden: unknown = JSON.parse(
  readFileSync(new URL('./__golden__/sync-post-payload.json', import.meta.url), 'utf8'),
);

describe('buildSyncPostPayload', () => {
  it('matches the reviewed golden payload', () => {
    expect(buildSyncPostPayload(lead, context, attempt)).toStrictEqual(golden);
  });

  it('builds a payload the buyer-side schema accepts unchanged', () => {
    expect(SyncPostPayloadSchema.parse(golden)).toStrictEqual(golden);
  });

  it('carries the attempt: its own key, the price floor and whole seconds within 0-180', () => {
    const payload = buildSyncPostPayload(lead, context, {
      idempotencyKey: `${context.leadId}-7`,
      minimumPrice: 0,
      maxResponseSeconds: 900,
    });
    expect(payload.IdempotencyKey).toBe(`${context.leadId}-7`);
    expect(payload.ReferenceID).toBe(context.leadId);
    expect(payload.MinimumPrice).toBe(0);
    expect(payload.MaxResponseTime).toBe(180);
    expect(buildSyncPostPayload(lead, context, { ...attempt, maxResponseSeconds: -3 }).MaxResponseTime).toBe(
      0,
    );
  });

  it('translates the yes/no answers into its own vocabulary', () => {
    const payload = buildSyncPostPayload(
      { ...lead, own_home: 'YES', own_car: 'NO', bank_direct_deposit: 'NO', ssn: '123-45-6789' },
      context,
      attempt,
    );
    expect(payload.RentOrOwn).toBe('OWN');
    expect(payload.OwnsCar).toBe(false);
    expect(payload.DirectDeposit).toBe(false);
    expect(payload.SSN).toBe('123456789');
  });

  it('refuses an incomplete lead', () => {
    const { bank_aba: _, ...incomplete } = lead;
    expect(() => buildSyncPostPayload(incomplete as SubmittableLead, context, attempt)).toThrow(z.ZodError);
  });
});

describe('answers', () => {
  it('parses sold, rejected and error answers', () => {
    const sold = { Result: 'Sold', LeadID: 'LM-1', Price: 55.5, RedirectURL: 'https://buyer.example/o/1' };
    expect(SyncPostResponseSchema.parse(sold)).toEqual({ ...sold, Errors: [] });
    expect(SyncPostResponseSchema.parse({ Result: 'Rejected' }).Result).toBe('Rejected');
    const error = {
      Result: 'Error',
      Errors: [{ Field: 'BankRoutingNumber', Value: '1', Description: 'Invalid' }],
    };
    expect(SyncPostResponseSchema.parse(error).Errors).toHaveLength(1);
    expect(SyncPostResponseSchema.safeParse({ Result: 'Maybe' }).success).toBe(false);
    expect(
      SyncPostResponseSchema.safeParse({ Result: 'Sold', RedirectURL: 'javascript:alert(1)' }).success,
    ).toBe(false);
  });

  it('maps field errors back to our field names and drops the reported values', () => {
    const mapped = mapSyncPostErrors([
      { Field: 'BankRoutingNumber', Value: '114994032', Description: 'Checksum failed' },
      { Field: 'RentOrOwn', Value: 'X', Description: 'Unknown' },
      { Field: 'MinimumPrice', Value: '80', Description: 'Too high' },
    ]);
    expect(mapped).toEqual([
      { field: 'bank_aba', buyerField: 'BankRoutingNumber', description: 'Checksum failed' },
      { field: 'own_home', buyerField: 'RentOrOwn', description: 'Unknown' },
      { field: 'MinimumPrice', buyerField: 'MinimumPrice', description: 'Too high' },
    ]);
    expect(JSON.stringify(mapped)).not.toContain('114994032');
  });
});

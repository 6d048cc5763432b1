import * as z from 'zod';

/**
 * The console's operator accounts, sessions and audit log (docs/adr/0021-operator-accounts-and-audit.md). Roles
 * are cumulative: a manager can do all a viewer can, an admin all a manager can.
 */
export const OperatorRoleSchema = z.enum(['viewer', 'manager', 'admin']).meta({ id: 'OperatorRole' });
export type OperatorRole = z.infer<typeof OperatorRoleSchema>;

const RANK: Record<OperatorRole, number> = { viewer: 0, manager: 1, admin: 2 };

/** True when `role` may do what `needed` may. */
export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return RANK[role] >= RANK[needed];
}

const email = z.email('Enter an email address.').max(254);
const password = z.string().max(512);

/** `POST /api/v1/admin/session`: a local account's email and password, and its TOTP code once one is enrolled. */
export const OperatorSignInSchema = z.object({
  email,
  password: password.min(1, 'Enter your password.'),
  code: z
    .string()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.')
    .optional(),
});
export type OperatorSignIn = z.infer<typeof OperatorSignInSchema>;

/** Who is signed in, as the console shows it. */
export const OperatorMeSchema = z
  .object({
    accountId: z.string(),
    email: z.string(),
    displayName: z.string(),
    role: OperatorRoleSchema,
    secondFactor: z.boolean(),
  })
  .meta({ id: 'OperatorMe' });
export type OperatorMe = z.infer<typeof OperatorMeSchema>;

/** `GET /api/v1/admin/session`: whether this browser holds a live operator session, and whose. */
export const OperatorSessionSchema = z.object({
  signedIn: z.boolean(),
  account: OperatorMeSchema.optional(),
  /** Whether `GET /api/v1/admin/oidc/start` signs in through the organisation's identity provider. */
  oidc: z.boolean(),
  /** The identity provider's name for the console's sign-in button (OIDC_PROVIDER_NAME), when one is set. */
  oidcProvider: z.string().optional(),
});
export type OperatorSession = z.infer<typeof OperatorSessionSchema>;

/** `POST /api/v1/admin/account-setup`: the one-time set-up link's token and the new password. */
export const AccountSetupSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This set-up link is not valid.'),
  password: password.min(12, 'Use at least 12 characters.'),
});
export type AccountSetup = z.infer<typeof AccountSetupSchema>;

/** `POST /api/v1/admin/me/second-factor`: a secret to enrol, until a first code confirms it. */
export const TotpEnrolmentSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

export const TotpConfirmSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
});

export const OperatorAccountSchema = z
  .object({
    accountId: z.string(),
    email: z.string(),
    displayName: z.string(),
    role: OperatorRoleSchema,
    hasPassword: z.boolean(),
    secondFactor: z.boolean(),
    oidc: z.boolean(),
    createdAt: z.string(),
    disabledAt: z.string().nullable(),
  })
  .meta({ id: 'OperatorAccount' });
export type OperatorAccount = z.infer<typeof OperatorAccountSchema>;

export const OperatorAccountListSchema = z.object({ accounts: z.array(OperatorAccountSchema) });

export const NewOperatorAccountSchema = z.object({
  email,
  displayName: z.string().trim().min(1, 'Enter a name.').max(120),
  role: OperatorRoleSchema,
});
export type NewOperatorAccountInput = z.infer<typeof NewOperatorAccountSchema>;

/** The new account, and the one-time link (path and fragment) its owner opens to choose a password. */
export const CreatedOperatorAccountSchema = z.object({
  account: OperatorAccountSchema,
  setupPath: z.string(),
  setupExpiresAt: z.string(),
});
export type CreatedOperatorAccount = z.infer<typeof CreatedOperatorAccountSchema>;

export const OperatorAccountChangeSchema = z
  .object({ role: OperatorRoleSchema.optional(), disabled: z.boolean().optional() })
  .refine(
    (change) => change.role !== undefined || change.disabled !== undefined,
    'Change the role or the state.',
  );
export type OperatorAccountChange = z.infer<typeof OperatorAccountChangeSchema>;

export const AuditOutcomeSchema = z.enum(['allowed', 'denied']);

export const AuditEntrySchema = z
  .object({
    auditId: z.string(),
    at: z.string(),
    accountId: z.string().nullable(),
    actor: z.string(),
    action: z.string(),
    method: z.string(),
    route: z.string(),
    leadId: z.string().nullable(),
    buyer: z.string().nullable(),
    targetAccountId: z.string().nullable(),
    outcome: AuditOutcomeSchema,
    ip: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const day = z.iso.date('Use YYYY-MM-DD.');

/** `GET /api/v1/admin/audit`: newest first, filtered; `before` pages on; `format=csv` downloads. */
export const AuditQuerySchema = z.object({
  /** An account id, or `api-token` for machine clients. */
  actor: z.string().max(64).optional(),
  action: z.string().max(64).optional(),
  outcome: AuditOutcomeSchema.optional(),
  leadId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .optional(),
  /** UTC days, `to` included. */
  from: day.optional(),
  to: day.optional(),
  before: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  format: z.enum(['json', 'csv']).default('json'),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `before` for older entries; absent on the last page. */
  nextBefore: z.string().optional(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

import * as z from 'zod';
import { PrivacyPhoneSchema } from './privacy.js';
import { EmailSchema } from './steps.js';

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
    .trim()
    .regex(
      /^(\d{6}|[a-z2-7]{4}(-?[a-z2-7]{4}){3})$/i,
      'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
    )
    .optional(),
});
export type OperatorSignIn = z.infer<typeof OperatorSignInSchema>;

/**
 * `POST /api/v1/admin/oidc/link`: proof that the console account the provider's email names is the person's own
 * (its password, and its code once a second factor is enrolled), once, before the provider may sign it in.
 */
export const OidcLinkSchema = OperatorSignInSchema.omit({ email: true });
export type OidcLink = z.infer<typeof OidcLinkSchema>;

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
  /**
   * The account's role needs a second factor (OPERATOR_SECOND_FACTOR_ROLES) and it has none yet: until it
   * enrols one, the session opens only the Security page.
   */
  secondFactorNeeded: z.boolean().optional(),
});
export type OperatorSession = z.infer<typeof OperatorSessionSchema>;

/** `POST /api/v1/admin/account-setup`: the one-time set-up link's token and the new password. */
export const AccountSetupSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This set-up link is not valid.'),
  password: password.min(12, 'Use at least 12 characters.'),
});
export type AccountSetup = z.infer<typeof AccountSetupSchema>;

/** `POST /api/v1/admin/me/second-factor`: a secret to enrol, until a first code confirms it. */
export const TotpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  /** The `otpauth://` URI as a QR code (SVG markup drawn by the server) for the authenticator app to scan. */
  qrSvg: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

export const TotpConfirmSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
});

/** The second factor's ten single-use recovery codes, shown once when it is confirmed; only their hashes are kept. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

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

/**
 * Every action the audit log records, with what the console calls it. Operator routes can only name one of
 * these (`operatorRoute` takes an `AuditAction`), so the console's Action filter offers every action there is.
 */
export const AUDIT_ACTIONS = {
  'session.sign-in': 'Signed in',
  'session.sign-in-oidc': 'Signed in with the organisation’s account',
  'session.sign-out-everywhere': 'Signed out everywhere',
  'account.setup': 'Set up an account',
  'second-factor.start': 'Started a second factor',
  'second-factor.confirm': 'Confirmed a second factor',
  'accounts.list': 'Listed accounts',
  'accounts.create': 'Created an account',
  'accounts.created': 'Account created',
  'accounts.change': 'Changed an account',
  'accounts.reset': 'Reset an account',
  'accounts.sign-out': 'Signed an account out',
  'audit.read': 'Read the audit log',
  'reports.read': 'Read reports',
  'leads.search': 'Searched leads',
  'leads.journey': 'Opened a lead’s journey',
  'leads.reveal': 'Revealed a lead’s answer',
  'consent.reveal': 'Read a lead’s consent evidence',
  'postbacks.read': 'Read a lead’s postbacks',
  'privacy-requests.read': 'Read privacy requests',
  'deletion-request.create': 'Erased a person’s leads',
  'returns.list': 'Listed returns',
  'returns.decide': 'Decided a return',
  'returns.reverse': 'Reversed a return',
  'buyers.list': 'Listed buyers',
  'buyers.read': 'Opened a buyer',
  'buyers.health': 'Read buyer health',
  'buyers.versions': 'Read buyer versions',
  'buyers.export': 'Exported buyers',
  'buyers.import': 'Imported buyers',
  'buyers.create': 'Added a buyer',
  'buyers.update': 'Changed a buyer',
  'buyers.pause': 'Paused a buyer',
  'buyers.resume': 'Resumed a buyer',
  'buyers.test': 'Sent a buyer a test lead',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

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

/**
 * `POST /api/v1/admin/audit/search`: the same filters, and a person's email or phone, which travel in the body so
 * they never reach a URL or a log; the BFF looks them up by their keyed hashes only.
 */
export const AuditSearchSchema = AuditQuerySchema.omit({ format: true })
  .extend({
    email: EmailSchema.optional(),
    phone: PrivacyPhoneSchema.optional(),
  })
  .refine((q) => q.email !== undefined || q.phone !== undefined, {
    error: 'Give the email or the phone of the person to look for.',
    path: ['email'],
  });
export type AuditSearch = z.input<typeof AuditSearchSchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `before` for older entries; absent on the last page. */
  nextBefore: z.string().optional(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

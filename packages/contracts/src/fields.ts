/**
 * The one table that maps client field names (BFF REST API, web app) to server field names (stored lead),
 * spec §3. Used in both directions; no other module renames lead fields.
 */
export const CLIENT_TO_SERVER = {
  amount: 'loan_amount',
  loanReason: 'loan_reason',
  zipCode: 'zip',
  city: 'city',
  state: 'state',
  latitude: 'lat',
  longitude: 'lon',
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'home_phone',
  bestTimeContact: 'contact_time',
  dob: 'dob',
  streetAddress: 'address',
  currentResidenceDuration: 'time_at_residence',
  residenceOwnership: 'own_home',
  incomeSource: 'income_type',
  currentCompanyDuration: 'work_time_at_employer',
  unsecuredDebtAmount: 'debt_amount',
  incomePaymentFrequency: 'income_payment_frequency',
  monthlyIncome: 'income_net_monthly',
  incomeNextDate1: 'income_next_date_1',
  incomeNextDate2: 'income_next_date_2',
  employerName: 'work_company_name',
  jobTitle: 'job_title',
  employerPhone: 'work_phone',
  getDirectDeposit: 'bank_direct_deposit',
  routingNumber: 'bank_aba',
  bankName: 'bank_name',
  bankAccountType: 'bank_account_type',
  currentBankDuration: 'bank_account_length_month',
  bankAccount: 'bank_account_number',
  licenseID: 'drivers_license_number',
  issuingState: 'drivers_license_state',
  ownCar: 'own_car',
  creditScoreRating: 'credit_score',
  socialSecurityNumber: 'ssn',
  ipAddress: 'user_ip',
  userAgent: 'user_agent',
  testMode: 'test_mode',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const;

export type ClientField = keyof typeof CLIENT_TO_SERVER;
export type ServerField = (typeof CLIENT_TO_SERVER)[ClientField];

export const SERVER_TO_CLIENT = Object.fromEntries(
  Object.entries(CLIENT_TO_SERVER).map(([client, server]) => [server, client]),
) as { [K in ClientField as (typeof CLIENT_TO_SERVER)[K]]: K };

/** Fields that are encrypted at rest, masked in API responses and redacted from logs (docs/product-rules.md §sensitive-data). */
export const SENSITIVE_CLIENT_FIELDS = [
  'socialSecurityNumber',
  'bankAccount',
  'routingNumber',
  'licenseID',
  'dob',
] as const satisfies readonly ClientField[];
export type SensitiveClientField = (typeof SENSITIVE_CLIENT_FIELDS)[number];

export const SENSITIVE_SERVER_FIELDS = SENSITIVE_CLIENT_FIELDS.map((f) => CLIENT_TO_SERVER[f]);

export function isSensitiveServerField(field: string): boolean {
  return (SENSITIVE_SERVER_FIELDS as readonly string[]).includes(field);
}

/**
 * Answers that name, reach or locate a person without being sensitive: sealed at rest like the sensitive ones
 * (so neither Redis nor its AOF and RDB files hold them in clear), but returned to the borrower unmasked. The ZIP
 * code, city, state and the ZIP's centre point stay in clear: they locate an area, not a person.
 */
export const PERSONAL_SERVER_FIELDS = [
  CLIENT_TO_SERVER.firstName,
  CLIENT_TO_SERVER.lastName,
  CLIENT_TO_SERVER.email,
  CLIENT_TO_SERVER.phone,
  CLIENT_TO_SERVER.employerPhone,
  CLIENT_TO_SERVER.streetAddress,
  CLIENT_TO_SERVER.employerName,
  CLIENT_TO_SERVER.ipAddress,
  CLIENT_TO_SERVER.userAgent,
] as const;

/** Every answer sealed at rest: the sensitive fields and the personal ones. */
export const SEALED_SERVER_FIELDS: readonly ServerField[] = [
  ...SENSITIVE_SERVER_FIELDS,
  ...PERSONAL_SERVER_FIELDS,
];

const SEALED = new Set<string>(SEALED_SERVER_FIELDS);

export function isSealedServerField(field: string): boolean {
  return SEALED.has(field);
}

type Renamed<T, M extends Record<string, string>> = {
  [K in keyof T as K extends keyof M ? M[K] : never]: T[K];
};

/** Renames the known client fields of `values` to server names; unknown keys are dropped. */
export function toServerFields<T extends Partial<Record<ClientField, unknown>>>(
  values: T,
): Renamed<T, typeof CLIENT_TO_SERVER> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const server = (CLIENT_TO_SERVER as Record<string, string>)[key];
    if (server !== undefined && value !== undefined) out[server] = value;
  }
  return out as Renamed<T, typeof CLIENT_TO_SERVER>;
}

/** Renames the known server fields of `values` to client names; unknown keys are dropped. */
export function toClientFields<T extends Partial<Record<ServerField, unknown>>>(
  values: T,
): Renamed<T, typeof SERVER_TO_CLIENT> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const client = (SERVER_TO_CLIENT as Record<string, string>)[key];
    if (client !== undefined && value !== undefined) out[client] = value;
  }
  return out as Renamed<T, typeof SERVER_TO_CLIENT>;
}

import type { RevealableField } from '@funnel/contracts/lead-reveal';

/** What the console calls each answer an admin may reveal: in the reveal panel, and in the audit log. */
export const FIELD_LABELS: Record<RevealableField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  streetAddress: 'Street address',
  employerName: 'Employer',
  employerPhone: 'Work phone',
  socialSecurityNumber: 'SSN (last four)',
  bankAccount: 'Bank account (last four)',
  routingNumber: 'Routing number (last four)',
  licenseID: 'Licence number (last four)',
};

import { SESSION_COOKIE } from '../src/plugins/lead-session.js';

/** A fixed "today" (a Tuesday) the answers below are valid on: the pay date must fall in its window. */
export const FUNNEL_NOW = new Date('2026-11-17T15:00:00Z');

/** Valid answers for every step, in wizard order, as a browser would send them. */
export const STEP_ANSWERS: Array<[string, Record<string, unknown>]> = [
  ['lgname', { firstName: 'Maria', lastName: 'Garcia' }],
  ['email', { email: 'maria.garcia@example.com' }],
  ['cellphone', { phone: '(212)-555-0142' }],
  ['besttimecontact', { bestTimeContact: 'MORNING' }],
  ['dob', { dob: '1988-04-09' }],
  ['address', { streetAddress: '350 W 31st St Apt 4', zipCode: '10001' }],
  ['hometime', { currentResidenceDuration: 36 }],
  ['ownhome', { residenceOwnership: 'NO' }],
  ['incomesource', { incomeSource: 'EMPLOYMENT' }],
  ['emptime', { currentCompanyDuration: 24 }],
  ['unsecureddebtamount', { unsecuredDebtAmount: 'NONE' }],
  ['payfreequency', { incomePaymentFrequency: 'BIWEEKLY' }],
  ['grossincome', { monthlyIncome: 3500 }],
  ['nextpaydate', { incomeNextDate1: '2026-11-27' }],
  ['empinfor', { employerName: 'Acme Logistics', jobTitle: 'Dispatcher' }],
  ['workphone', { employerPhone: '6465550199' }],
  ['deposit', { getDirectDeposit: 'YES' }],
  ['aba', { routingNumber: '021000021', bankName: 'Chase' }],
  ['banktype', { bankAccountType: 'CHECKING' }],
  ['banktime', { currentBankDuration: 30 }],
  ['bankaccount', { bankAccount: '000123456789' }],
  ['driverid', { licenseID: 'G1234-56789-01234', issuingState: 'NY' }],
  ['owncar', { ownCar: 'NO' }],
  ['creditscore', { creditScoreRating: 'FAIR' }],
  ['ssn', { socialSecurityNumber: '123-45-6789' }],
];

/** The `cookie` header that carries the session a response set. */
export function cookieOf(response: { cookies: Array<{ name: string; value: string }> }): string {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error('no session cookie set');
  return `${SESSION_COOKIE}=${cookie.value}`;
}

/** The lead id inside a session cookie header (the signature follows the dot). */
export function leadIdOf(cookie: string): string {
  return cookie.split('=')[1]!.split('.')[0]!;
}

/**
 * What each client field means, for the API document (issue 12): the BFF's OpenAPI generator adds these to every
 * schema property of that name, in the funnel's step operations and the partner API alike. Rules and messages
 * stay in the schemas; this says what a value is.
 */
import type { ClientField } from './fields.js';

export const FIELD_DESCRIPTIONS: Partial<Record<ClientField, string>> = {
  amount:
    'Loan amount requested, in whole US dollars: 100 to 900 in steps of 100, or 1000 to 5000 in steps of 1000 (1500 is not offered).',
  loanReason: 'What the loan is for.',
  zipCode: 'Five-digit US ZIP code of the borrower’s home; city and state are looked up from it.',
  firstName: 'Borrower’s first name as on their ID (1 to 50 characters).',
  lastName: 'Borrower’s last name as on their ID (1 to 50 characters).',
  email: 'Borrower’s email address.',
  phone:
    'Borrower’s mobile phone, 10 digits (`2125550142`) or as the funnel’s input shows it (`(212)-555-0142`).',
  bestTimeContact: 'The time of day the borrower prefers to be called.',
  dob: 'Date of birth, YYYY-MM-DD; the borrower must be 18 or older. Sensitive: encrypted at rest, never echoed.',
  streetAddress: "Street address of the borrower’s home: letters, digits, spaces and - / ' ( ) & only.",
  currentResidenceDuration: 'Months at the current address.',
  residenceOwnership: 'Whether the borrower owns or rents their home.',
  incomeSource: 'Where the borrower’s main income comes from.',
  currentCompanyDuration: 'Months with the current employer or income source.',
  unsecuredDebtAmount: 'Total unsecured debt (credit cards, personal loans), as a range.',
  incomePaymentFrequency: 'How often the borrower is paid.',
  monthlyIncome: 'Net monthly income in whole US dollars.',
  incomeNextDate1: 'The next pay date, YYYY-MM-DD: a business day within the window the funnel offers.',
  incomeNextDate2: 'The pay date after the next one, YYYY-MM-DD (computed from the frequency when omitted).',
  employerName: 'Employer’s name (1 to 100 characters).',
  jobTitle: 'Borrower’s job title (1 to 100 characters).',
  employerPhone: 'Employer’s phone, 10 digits; must differ from the borrower’s own phone.',
  getDirectDeposit: 'Whether pay arrives by direct deposit.',
  routingNumber: 'The bank’s 9-digit ABA routing number (checksum validated). Sensitive: encrypted at rest.',
  bankName: 'The bank’s name (1 to 100 characters).',
  bankAccountType: 'Checking or savings.',
  currentBankDuration: 'Months the bank account has been open.',
  bankAccount:
    'Bank account number, 4 to 17 digits. Sensitive: encrypted at rest, shown only as `•••• 6789`.',
  licenseID: 'Driver’s licence or state ID number (2 to 25 characters). Sensitive: encrypted at rest.',
  issuingState: 'The US state that issued the licence: a two-letter code or the state’s name.',
  ownCar: 'Whether the borrower owns a car.',
  creditScoreRating: 'The borrower’s own estimate of their credit.',
  socialSecurityNumber:
    'Social Security Number, 9 digits with or without dashes. Sensitive: encrypted at rest, shown only as `•••• 6789`.',
};

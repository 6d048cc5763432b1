import { describe, expect, it } from 'vitest';
import { fieldErrors } from './errors.js';
import { CLIENT_TO_SERVER } from './fields.js';
import {
  LandingSchema,
  STEPS,
  STEP_NAMES,
  STEP_SCHEMAS,
  StepNameSchema,
  createDobPartsSchema,
  getStep,
  nextStepFor,
  firstMissingStep,
  previousStep,
  progressFor,
  stepIndex,
  validateStepAgainstLead,
  type ClientAnswers,
  type StepName,
  screenAfter,
} from './steps.js';

/** A Monday; the pay-date window then runs to Wednesday 2025-07-02. */
const TODAY = '2025-06-02';

/** One acceptable answer for every step. */
const VALID: { [N in StepName]: Record<string, unknown> } = {
  lgname: { firstName: 'Ada', lastName: 'Lovelace' },
  email: { email: 'ada@example.com' },
  cellphone: { phone: '(212)-555-1234' },
  besttimecontact: { bestTimeContact: 'ANYTIME' },
  dob: { dob: '1990-05-17' },
  address: { streetAddress: "12 O'Neil St (Rear) & 3/4 - B", zipCode: '10001' },
  hometime: { currentResidenceDuration: 24 },
  ownhome: { residenceOwnership: 'YES' },
  incomesource: { incomeSource: 'EMPLOYMENT' },
  emptime: { currentCompanyDuration: 60 },
  unsecureddebtamount: { unsecuredDebtAmount: 'NONE' },
  payfreequency: { incomePaymentFrequency: 'BIWEEKLY' },
  grossincome: { monthlyIncome: 2500 },
  nextpaydate: { incomeNextDate1: '2025-06-06' },
  empinfor: { employerName: 'Acme Corp', jobTitle: 'Engineer' },
  workphone: { employerPhone: '2015550123' },
  deposit: { getDirectDeposit: 'YES' },
  aba: { routingNumber: '021000021', bankName: 'JPMorgan Chase Bank' },
  banktype: { bankAccountType: 'CHECKING' },
  banktime: { currentBankDuration: 30 },
  bankaccount: { bankAccount: '000123456789' },
  driverid: { licenseID: 'D1234567', issuingState: 'NY' },
  owncar: { ownCar: 'NO' },
  creditscore: { creditScoreRating: 'GOOD' },
  ssn: { socialSecurityNumber: '123-45-6789' },
};

/** The field messages step `step` gives for its valid answer with `field` set to `value` (undefined: left out). */
function errorsFor(step: StepName, field: string, value: unknown): Record<string, string> {
  const body: Record<string, unknown> = { ...VALID[step] };
  if (value === undefined) delete body[field];
  else body[field] = value;
  const result = getStep(step).schema.safeParse(body);
  return result.success ? {} : fieldErrors(result.error);
}

const MISSING = undefined;

describe('step rules of spec §5 as amended by docs/product-rules.md §messages', () => {
  it.each(STEP_NAMES)('%s accepts its valid answer', (step) => {
    expect(getStep(step).schema.safeParse(VALID[step]).success).toBe(true);
  });

  it.each<[StepName, string, unknown, string]>([
    ['lgname', 'firstName', MISSING, 'First name is required!'],
    ['lgname', 'firstName', '   ', 'First name is required!'],
    ['lgname', 'firstName', 42, 'First name is required!'],
    ['lgname', 'firstName', 'A'.repeat(51), 'First name must be at most 50 characters'],
    ['lgname', 'lastName', MISSING, 'Last name is required!'],
    ['lgname', 'lastName', '', 'Last name is required!'],
    ['lgname', 'amount', 750, 'Please select a loan amount from $100 to $5,000'],
    ['email', 'email', MISSING, 'Email is required!'],
    ['email', 'email', ' ', 'Email is required!'],
    ['email', 'email', 'not-an-email', 'Invalid email address'],
    ['email', 'email', 'ada@example', 'Invalid email address'],
    ['email', 'email', 'ada@@example.com', 'Invalid email address'],
    ['cellphone', 'phone', MISSING, 'Phone number is required!'],
    ['cellphone', 'phone', '', 'Phone number is required!'],
    ['cellphone', 'phone', '212-555-1234', 'The phone number is not correct!'],
    ['cellphone', 'phone', '(212)-555-123_', 'The phone number is not correct!'],
    ['cellphone', 'phone', '212555123', 'The phone number is not correct!'],
    ['cellphone', 'phone', '1125551234', 'The phone number is not correct!'],
    ['cellphone', 'phone', '0125551234', 'The phone number is not correct!'],
    ['cellphone', 'phone', '2121555123', 'The phone number is not correct!'],
    ['cellphone', 'phone', '3705551234', 'The phone number is not correct!'],
    ['besttimecontact', 'bestTimeContact', MISSING, 'Please select one option.'],
    ['besttimecontact', 'bestTimeContact', 'NIGHT', 'Please select one option.'],
    ['dob', 'dob', MISSING, 'Date of birth is required!'],
    ['dob', 'dob', '1990-02-30', 'Please enter a valid date of birth'],
    ['dob', 'dob', '05/17/1990', 'Please enter a valid date of birth'],
    ['address', 'streetAddress', MISSING, 'Street Address is required!'],
    ['address', 'streetAddress', '  ', 'Street Address is required!'],
    ['address', 'streetAddress', '12 Main St; DROP', 'The address can not contain special characters!'],
    ['address', 'streetAddress', '12 Main St <b>', 'The address can not contain special characters!'],
    ['address', 'streetAddress', '12 Main St @ 4', 'The address can not contain special characters!'],
    ['address', 'streetAddress', `1${' Main'.repeat(20)}`, 'Street address must be at most 100 characters'],
    ['address', 'zipCode', MISSING, 'Zip code is required!'],
    ['address', 'zipCode', '1234', 'Zip code must be 5 characters long!'],
    ['address', 'zipCode', '123456', 'Zip code must be 5 characters long!'],
    ['address', 'zipCode', '1234a', 'Zip code must be 5 characters long!'],
    ['hometime', 'currentResidenceDuration', MISSING, 'Please select one option.'],
    ['hometime', 'currentResidenceDuration', 13, 'Please select one option.'],
    ['ownhome', 'residenceOwnership', MISSING, 'Please choose an answer'],
    ['ownhome', 'residenceOwnership', 'MAYBE', 'Please choose an answer'],
    ['incomesource', 'incomeSource', MISSING, 'Please choose an answer'],
    ['emptime', 'currentCompanyDuration', MISSING, 'Please choose an answer'],
    ['emptime', 'currentCompanyDuration', 36, 'Please choose an answer'],
    ['unsecureddebtamount', 'unsecuredDebtAmount', MISSING, 'Please select one option.'],
    ['payfreequency', 'incomePaymentFrequency', MISSING, 'Please choose an answer'],
    ['grossincome', 'monthlyIncome', MISSING, 'Please choose an answer'],
    ['grossincome', 'monthlyIncome', 3000, 'Please choose an answer'],
    ['nextpaydate', 'incomeNextDate1', MISSING, 'Please choose an answer'],
    ['nextpaydate', 'incomeNextDate1', '', 'Please choose an answer'],
    ['nextpaydate', 'incomeNextDate1', 'next friday', 'Please select a date within the next 30 days'],
    ['empinfor', 'employerName', MISSING, 'Employer name is required!'],
    ['empinfor', 'employerName', ' ', 'Employer name is required!'],
    ['empinfor', 'jobTitle', MISSING, 'Job title is required!'],
    ['workphone', 'employerPhone', MISSING, 'Phone number is required!'],
    ['workphone', 'employerPhone', '(201)-555-01__', 'Phone number must be exactly 10 digits'],
    ['workphone', 'employerPhone', '201555012', 'Phone number must be exactly 10 digits'],
    ['workphone', 'employerPhone', '20155501234', 'Phone number must be exactly 10 digits'],
    ['workphone', 'employerPhone', '1015550123', 'The phone number is not correct!'],
    ['workphone', 'employerPhone', '201.555.0123', 'The phone number is not correct!'],
    ['workphone', 'employerPhone', 'call me', 'The phone number is not correct!'],
    ['deposit', 'getDirectDeposit', MISSING, 'Please choose an answer!'],
    ['aba', 'routingNumber', MISSING, 'Routing Number is required!'],
    ['aba', 'routingNumber', '', 'Routing Number is required!'],
    ['aba', 'routingNumber', '02100002', 'Routing Number must be a 9-digit number.'],
    ['aba', 'routingNumber', '0210000211', 'Routing Number must be a 9-digit number.'],
    ['aba', 'routingNumber', '02100002a', 'Routing Number must be a 9-digit number.'],
    ['aba', 'routingNumber', '021000022', 'Invalid Routing Number!'],
    ['aba', 'bankName', MISSING, 'Bank Name is required!'],
    ['aba', 'bankName', ' ', 'Bank Name is required!'],
    ['banktype', 'bankAccountType', MISSING, 'Bank Account Type is required!'],
    ['banktime', 'currentBankDuration', MISSING, 'Please choose an answer'],
    ['banktime', 'currentBankDuration', 18, 'Please choose an answer'],
    ['bankaccount', 'bankAccount', MISSING, 'Bank Account is required!'],
    ['bankaccount', 'bankAccount', '', 'Bank Account is required!'],
    ['bankaccount', 'bankAccount', '123', 'Please enter at least 4 digits'],
    ['bankaccount', 'bankAccount', '1'.repeat(18), 'Please enter at most 17 digits'],
    ['bankaccount', 'bankAccount', '1234-5678', 'Please enter digits only'],
    ['bankaccount', 'bankAccount', '12ab', 'Please enter digits only'],
    ['driverid', 'licenseID', MISSING, 'License ID is required!'],
    ['driverid', 'licenseID', ' ', 'License ID is required!'],
    ['driverid', 'licenseID', 'D', 'Please enter at least 2 characters'],
    ['driverid', 'licenseID', 'D'.repeat(26), 'License ID must be at most 25 characters'],
    ['driverid', 'issuingState', MISSING, 'Issuing state is required!'],
    ['driverid', 'issuingState', '', 'Issuing state is required!'],
    ['driverid', 'issuingState', 'Ontario', 'Please choose a state from the list'],
    ['owncar', 'ownCar', MISSING, 'Please select one option.'],
    ['creditscore', 'creditScoreRating', MISSING, 'Please select one option.'],
    ['ssn', 'socialSecurityNumber', MISSING, 'Social Security Number is required!'],
    ['ssn', 'socialSecurityNumber', '', 'Social Security Number is required!'],
    ['ssn', 'socialSecurityNumber', '123-45-678', 'Invalid social security number format xxx-xx-xxxx'],
    ['ssn', 'socialSecurityNumber', '123 45 6789', 'Invalid social security number format xxx-xx-xxxx'],
    ['ssn', 'socialSecurityNumber', '666-12-345', 'Invalid social security number format xxx-xx-xxxx'],
    ['ssn', 'socialSecurityNumber', '999123456', 'Please enter a valid Social Security Number'],
    ['ssn', 'socialSecurityNumber', '000-12-3456', 'Please enter a valid Social Security Number'],
    ['ssn', 'socialSecurityNumber', '666-12-3456', 'Please enter a valid Social Security Number'],
    ['ssn', 'socialSecurityNumber', '900-12-3456', 'Please enter a valid Social Security Number'],
    ['ssn', 'socialSecurityNumber', '123-00-4567', 'Please enter a valid Social Security Number'],
    ['ssn', 'socialSecurityNumber', '123-45-0000', 'Please enter a valid Social Security Number'],
  ])('%s: %s = %j → %j', (step, field, value, message) => {
    expect(errorsFor(step, field, value)).toEqual({ [field]: message });
  });

  it('refuses control, bidi-override and broken characters in every free-text answer, and stores NFC', () => {
    const unsupported = 'Please remove unsupported characters.';
    expect(errorsFor('lgname', 'firstName', '\u0000\u0007\u001b[31mBob\u202Eevil')).toEqual({
      firstName: unsupported,
    });
    expect(errorsFor('empinfor', 'employerName', 'Acme\u2066 Corp')).toEqual({ employerName: unsupported });
    expect(errorsFor('aba', 'bankName', 'Chase\ud800')).toEqual({ bankName: unsupported });
    expect(getStep('lgname').schema.parse({ firstName: 'Jose\u0301', lastName: 'Nun\u0303ez' })).toEqual({
      firstName: 'Jos\u00e9',
      lastName: 'Nu\u00f1ez',
    });
  });

  it('trims text answers', () => {
    expect(getStep('lgname').schema.parse({ firstName: '  Ada ', lastName: '\tLovelace\n' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(getStep('email').schema.parse({ email: ' ada@example.com ' })).toEqual({
      email: 'ada@example.com',
    });
  });

  it('takes an amount on the name step only when one is sent', () => {
    expect(getStep('lgname').schema.parse({ ...VALID.lgname, amount: 1000 })).toMatchObject({ amount: 1000 });
    expect(getStep('lgname').schema.parse(VALID.lgname)).not.toHaveProperty('amount');
  });

  it.each([
    ['(212)-555-1234', '2125551234'],
    // The mask as decided in docs/decisions-addendum.md (issue 25).
    ['(212) 555-1234', '2125551234'],
    ['2125551234', '2125551234'],
    [' (212)-555-1234 ', '2125551234'],
  ])('stores the phone %j as %j', (phone, digits) => {
    expect(getStep('cellphone').schema.parse({ phone })).toEqual({ phone: digits });
  });

  it('stores the work phone as its 10 digits', () => {
    expect(getStep('workphone').schema.parse({ employerPhone: '(201)-555-0123' })).toEqual({
      employerPhone: '2015550123',
    });
  });

  it.each([
    ['123-45-6789', '123456789'],
    ['123456789', '123456789'],
    ['899-99-9999', '899999999'],
  ])('stores the SSN %j as %j', (ssn, digits) => {
    expect(getStep('ssn').schema.parse({ socialSecurityNumber: ssn })).toEqual({
      socialSecurityNumber: digits,
    });
  });

  it.each([
    ['NY', 'NY'],
    ['ny', 'NY'],
    ['New York', 'NY'],
  ])('stores the issuing state %j as %j', (issuingState, code) => {
    expect(getStep('driverid').schema.parse({ licenseID: 'D1', issuingState })).toEqual({
      licenseID: 'D1',
      issuingState: code,
    });
  });

  it.each(['120 Main St., Apt #4', "12 O'Neil Rd, Unit 3-B", '7 Elm (Rear) & Oak / 2'])(
    "accepts the street address %j (docs/product-rules.md §street-address-and-free-text: - / ' ( ) & . , #)",
    (streetAddress) => {
      expect(errorsFor('address', 'streetAddress', streetAddress)).toEqual({});
    },
  );

  it('accepts DC as the issuing state, by code or name', () => {
    expect(
      getStep('driverid').schema.parse({ licenseID: 'D1', issuingState: 'District of Columbia' }),
    ).toEqual({
      licenseID: 'D1',
      issuingState: 'DC',
    });
    expect(errorsFor('driverid', 'issuingState', 'dc')).toEqual({});
  });

  it('accepts the bank-account and licence limits themselves', () => {
    expect(errorsFor('bankaccount', 'bankAccount', '1234')).toEqual({});
    expect(errorsFor('bankaccount', 'bankAccount', '1'.repeat(17))).toEqual({});
    expect(errorsFor('driverid', 'licenseID', 'D1')).toEqual({});
    expect(errorsFor('driverid', 'licenseID', 'D'.repeat(25))).toEqual({});
  });

  it('drops keys the step does not own', () => {
    expect(
      getStep('email').schema.parse({ email: 'ada@example.com', socialSecurityNumber: '123456789' }),
    ).toEqual({
      email: 'ada@example.com',
    });
  });

  it('reports one message per field, every failing field at once', () => {
    const result = getStep('aba').schema.safeParse({});
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      routingNumber: 'Routing Number is required!',
      bankName: 'Bank Name is required!',
    });
  });
});

describe('LandingSchema', () => {
  const landing = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' };

  it('accepts amount, reason and ZIP, with an optional deep-link email', () => {
    expect(LandingSchema.parse(landing)).toEqual(landing);
    expect(LandingSchema.parse({ ...landing, email: ' ada@example.com ' })).toEqual({
      ...landing,
      email: 'ada@example.com',
    });
  });

  it('gives the spec messages for an empty form', () => {
    const result = LandingSchema.safeParse({});
    expect(fieldErrors(result.error!)).toEqual({
      amount: 'Loan amount is required!',
      loanReason: 'Loan reason is required!',
      zipCode: 'Zip code is required!',
    });
  });

  it.each<[Record<string, unknown>, Record<string, string>]>([
    [{ zipCode: '123' }, { zipCode: 'Zip code must be 5 characters long!' }],
    [{ amount: 450 }, { amount: 'Please select a loan amount from $100 to $5,000' }],
    [{ loanReason: 'RENEWABLE_ENERGY' }, { loanReason: 'Please select a loan reason from the list' }],
    [{ email: 'ada' }, { email: 'Invalid email address' }],
  ])('%j → %j', (change, errors) => {
    const result = LandingSchema.safeParse({ ...landing, ...change });
    expect(fieldErrors(result.error!)).toEqual(errors);
  });
});

describe('the step registry', () => {
  it('has the 25 screens in wizard order, besttimecontact after cellphone', () => {
    expect(STEPS.map((step) => step.name)).toEqual([
      'lgname',
      'email',
      'cellphone',
      'besttimecontact',
      'dob',
      'address',
      'hometime',
      'ownhome',
      'incomesource',
      'emptime',
      'unsecureddebtamount',
      'payfreequency',
      'grossincome',
      'nextpaydate',
      'empinfor',
      'workphone',
      'deposit',
      'aba',
      'banktype',
      'banktime',
      'bankaccount',
      'driverid',
      'owncar',
      'creditscore',
      'ssn',
    ]);
    expect(StepNameSchema.options).toEqual(STEPS.map((step) => step.name));
  });

  it('saves the client fields of each step', () => {
    expect(Object.fromEntries(STEPS.map((step) => [step.name, step.fields]))).toEqual({
      lgname: ['firstName', 'lastName', 'amount'],
      email: ['email'],
      cellphone: ['phone'],
      besttimecontact: ['bestTimeContact'],
      dob: ['dob'],
      address: ['streetAddress', 'zipCode'],
      hometime: ['currentResidenceDuration'],
      ownhome: ['residenceOwnership'],
      incomesource: ['incomeSource'],
      emptime: ['currentCompanyDuration'],
      unsecureddebtamount: ['unsecuredDebtAmount'],
      payfreequency: ['incomePaymentFrequency'],
      grossincome: ['monthlyIncome'],
      nextpaydate: ['incomeNextDate1'],
      empinfor: ['employerName', 'jobTitle'],
      workphone: ['employerPhone'],
      deposit: ['getDirectDeposit'],
      aba: ['routingNumber', 'bankName'],
      banktype: ['bankAccountType'],
      banktime: ['currentBankDuration'],
      bankaccount: ['bankAccount'],
      driverid: ['licenseID', 'issuingState'],
      owncar: ['ownCar'],
      creditscore: ['creditScoreRating'],
      ssn: ['socialSecurityNumber'],
    });
  });

  it('names only client fields of the field map, each saved by one step', () => {
    const all = STEPS.flatMap((step) => step.fields);
    for (const field of all) expect(Object.keys(CLIENT_TO_SERVER)).toContain(field);
    expect(new Set(all).size).toBe(all.length);
  });

  it('requires every field but the name step amount', () => {
    expect(getStep('lgname').requiredFields).toEqual(['firstName', 'lastName']);
    for (const step of STEPS.filter((s) => s.name !== 'lgname'))
      expect(step.requiredFields).toEqual(step.fields);
  });

  it('gives each step its route and a question', () => {
    for (const step of STEPS) {
      expect(step.path).toBe(`/${step.name}`);
      expect(step.title).toMatch(/\?$/);
      expect(step.schema).toBe(STEP_SCHEMAS[step.name]);
    }
    expect(new Set(STEPS.map((step) => step.title)).size).toBe(STEPS.length);
    expect(getStep('unsecureddebtamount').title).toBe('How much unsecured debt do you have to pay?');
    expect(getStep('banktime').title).toBe('How long have you been at your current bank?');
    expect(getStep('deposit').title).toBe('Do you get direct deposit?');
  });

  it('knows each step by name and position', () => {
    expect(getStep('dob').name).toBe('dob');
    expect(stepIndex('lgname')).toBe(0);
    expect(stepIndex('besttimecontact')).toBe(3);
    expect(stepIndex('ssn')).toBe(24);
  });

  it.each<[StepName, StepName | undefined]>([
    ['lgname', undefined],
    ['email', 'lgname'],
    ['besttimecontact', 'cellphone'],
    ['dob', 'besttimecontact'],
    ['empinfor', 'nextpaydate'],
    ['ssn', 'creditscore'],
  ])('previousStep(%s) is %s', (step, previous) => {
    expect(previousStep(step)).toBe(previous);
  });
});

describe('progressFor', () => {
  it('shows 5 on the first screen and never 100 before the application is submitted', () => {
    expect(progressFor('lgname')).toBe(5);
    expect(progressFor('ssn')).toBe(96.2);
    expect(Math.round(progressFor('ssn'))).toBeLessThan(100);
  });

  it('adds 100/26 per screen, a different value on every step, and never moves backwards', () => {
    expect(progressFor('email')).toBe(7.7);
    expect(progressFor('cellphone')).toBe(11.5);
    expect(progressFor('besttimecontact')).toBe(15.4);
    expect(progressFor('grossincome')).toBe(50);
    const values = STEP_NAMES.map(progressFor);
    // Distinct as the bar shows them (whole percent), not only as numbers.
    expect(new Set(values.map(Math.round)).size).toBe(STEP_NAMES.length);
    for (const [index, value] of values.entries()) {
      if (index > 0) expect(value).toBeGreaterThan(values[index - 1]!);
    }
  });
});

describe('nextStepFor', () => {
  /** The answers of every step up to but not including `step`, as stored (client names). */
  function answeredBefore(step: StepName): ClientAnswers {
    const lead: Record<string, unknown> = {};
    for (const name of STEP_NAMES.slice(0, stepIndex(step)))
      Object.assign(lead, getStep(name).schema.parse(VALID[name]));
    return lead;
  }

  it('starts a new lead on the name step', () => {
    expect(nextStepFor({})).toBe('lgname');
    expect(
      nextStepFor({ amount: 500, loanReason: 'OTHER', zipCode: '10001', city: 'New York', state: 'NY' }),
    ).toBe('lgname');
  });

  it.each(STEP_NAMES)('resumes on %s when every earlier step is answered', (step) => {
    expect(nextStepFor(answeredBefore(step))).toBe(step);
  });

  it('ends on ssn once every step is answered, ssn included', () => {
    const all = { ...answeredBefore('ssn'), socialSecurityNumber: '123456789' };
    expect(nextStepFor(all)).toBe('ssn');
    expect(firstMissingStep(all)).toBeUndefined();
    expect(firstMissingStep(answeredBefore('ssn'))).toBe('ssn');
    expect(firstMissingStep(answeredBefore('aba'))).toBe('aba');
  });

  it('returns to the first hole, whatever was answered after it', () => {
    const lead = { ...answeredBefore('ssn') };
    delete lead.bestTimeContact;
    expect(nextStepFor(lead)).toBe('besttimecontact');
  });

  it('counts null and empty answers as missing', () => {
    expect(nextStepFor({ ...answeredBefore('ssn'), dob: null })).toBe('dob');
    expect(nextStepFor({ ...answeredBefore('ssn'), email: '' })).toBe('email');
  });

  it('needs every field of a step: a routing number without a bank name stays on aba', () => {
    const lead = { ...answeredBefore('ssn') };
    delete lead.bankName;
    expect(nextStepFor(lead)).toBe('aba');
  });

  it('does not wait for the optional amount of the name step', () => {
    expect(nextStepFor({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('email');
  });
});

describe('validateStepAgainstLead', () => {
  it.each([
    ['2007-06-02', {}],
    ['2007-06-01', {}],
    ['2007-06-03', { dob: 'You are not yet 18 years old' }],
    ['2020-01-01', { dob: 'You are not yet 18 years old' }],
    ['2026-01-01', { dob: 'Please enter a valid date of birth' }],
    ['1908-01-01', {}],
    ['1907-12-31', { dob: 'Please enter a valid date of birth' }],
  ])('dob %s on %s', (dob, errors) => {
    expect(validateStepAgainstLead('dob', { dob }, {}, TODAY)).toEqual(errors);
  });

  it.each([
    ['2025-06-02', {}],
    ['2025-06-06', {}],
    ['2025-07-02', {}],
    ['2025-06-01', { incomeNextDate1: 'Please select a date within the next 30 days' }],
    // Inside the window on a Saturday and on Juneteenth (a Federal Reserve holiday).
    ['2025-06-07', { incomeNextDate1: 'Please select a business day' }],
    ['2025-06-19', { incomeNextDate1: 'Please select a business day' }],
    ['2025-07-03', { incomeNextDate1: 'Please select a date within the next 30 days' }],
    ['2025-07-04', { incomeNextDate1: 'Please select a date within the next 30 days' }],
  ])('pay date %s (today %s)', (incomeNextDate1, errors) => {
    expect(validateStepAgainstLead('nextpaydate', { incomeNextDate1 }, {}, TODAY)).toEqual(errors);
  });

  it('refuses a work phone equal to the personal phone', () => {
    expect(
      validateStepAgainstLead('workphone', { employerPhone: '2125551234' }, { phone: '2125551234' }, TODAY),
    ).toEqual({ employerPhone: 'Company phone number must not be the same as personal phone number!' });
    expect(
      validateStepAgainstLead('workphone', { employerPhone: '2015550123' }, { phone: '2125551234' }, TODAY),
    ).toEqual({});
    expect(validateStepAgainstLead('workphone', { employerPhone: '2015550123' }, {}, TODAY)).toEqual({});
  });

  it('refuses a personal phone changed to the saved work phone', () => {
    expect(
      validateStepAgainstLead('cellphone', { phone: '2015550123' }, { employerPhone: '2015550123' }, TODAY),
    ).toEqual({ phone: 'Company phone number must not be the same as personal phone number!' });
  });

  it('has nothing to add for steps a payload decides alone', () => {
    for (const step of STEP_NAMES.filter(
      (s) => !['dob', 'nextpaydate', 'workphone', 'cellphone'].includes(s),
    )) {
      expect(validateStepAgainstLead(step, VALID[step] as ClientAnswers, {}, TODAY)).toEqual({});
    }
  });
});

describe('createDobPartsSchema', () => {
  const schema = createDobPartsSchema(TODAY);

  it('outputs the ISO date of the three selects', () => {
    expect(schema.parse({ month: 5, day: 7, year: 1990 })).toBe('1990-05-07');
    expect(schema.parse({ month: '12', day: '31', year: '1990' })).toBe('1990-12-31');
  });

  it('passes on the 18th birthday and fails the day before it', () => {
    expect(schema.parse({ month: 6, day: 2, year: 2007 })).toBe('2007-06-02');
    const dayBefore = schema.safeParse({ month: 6, day: 3, year: 2007 });
    expect(fieldErrors(dayBefore.error!)).toEqual({ year: 'You are not yet 18 years old' });
  });

  it('asks for each select that is not chosen', () => {
    expect(fieldErrors(schema.safeParse({}).error!)).toEqual({
      month: 'Month is required!',
      day: 'Day is required!',
      year: 'Year is required!',
    });
    expect(fieldErrors(schema.safeParse({ month: '', day: '', year: '' }).error!)).toEqual({
      month: 'Month is required!',
      day: 'Day is required!',
      year: 'Year is required!',
    });
  });

  it.each<[Record<string, unknown>, Record<string, string>]>([
    [{ month: 13, day: 1, year: 1990 }, { month: 'Month is required!' }],
    [{ month: 2, day: 30, year: 1990 }, { day: 'Day is required!' }],
    [{ month: 2, day: 29, year: 1990 }, { day: 'Day is required!' }],
    [{ month: 4, day: 31, year: 1990 }, { day: 'Day is required!' }],
    [{ month: 1, day: 1, year: 1907 }, { year: 'Year is required!' }],
    [{ month: 1, day: 1, year: 2026 }, { year: 'Year is required!' }],
    [{ month: 1.5, day: 1, year: 1990 }, { month: 'Month is required!' }],
  ])('%j → %j', (parts, errors) => {
    expect(fieldErrors(schema.safeParse(parts).error!)).toEqual(errors);
  });

  it('accepts a leap-day birthday in a leap year and the oldest year of the list', () => {
    expect(schema.parse({ month: 2, day: 29, year: 2004 })).toBe('2004-02-29');
    expect(schema.parse({ month: 1, day: 1, year: 1908 })).toBe('1908-01-01');
  });
});

describe('screenAfter (issue 25: Next after going Back)', () => {
  it('moves one screen at a time through answered screens, up to the first unanswered one', () => {
    // Everything up to ssn is answered; the borrower went back to dob to review.
    expect(screenAfter('dob', 'ssn')).toBe('address');
    expect(screenAfter('address', 'ssn')).toBe('hometime');
    // The screen after is the first unanswered one.
    expect(screenAfter('creditscore', 'ssn')).toBe('ssn');
    expect(screenAfter('lgname', 'email')).toBe('email');
    // A screen saved past a gap goes back to the gap, as the BFF says.
    expect(screenAfter('aba', 'email')).toBe('email');
    // The last screen.
    expect(screenAfter('ssn', 'ssn')).toBe('ssn');
  });
});

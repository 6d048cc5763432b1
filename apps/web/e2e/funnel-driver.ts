// Drives the funnel the way a visitor does (valid answers per screen), and, for tests about one screen, builds a
// lead up to that screen through the API the screens use.
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { isSelectablePayDate } from '@funnel/contracts/rules/pay-dates';
import { addDays } from '@funnel/contracts/rules/calendar-date';
import { STEP_NAMES, type StepName } from '@funnel/contracts/steps';

/** The answers the happy path gives, as typed into the screens. */
export const VISITOR = {
  amount: '1000',
  loanReason: 'AUTO_REPAIR',
  zipCode: '10001',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane.doe@example.com',
  phone: '2125550123',
  dob: { month: '5', day: '15', year: '1990' },
  streetAddress: '120 Main St',
  employerName: 'Acme Logistics',
  jobTitle: 'Dispatcher',
  workPhone: '3125557788',
  routingNumber: '011000138',
  bankAccount: '123456789',
  licenseID: 'D1234567',
  issuingState: 'California',
  ssn: '123456789',
} as const;

/** Today as the BFF sees it (its business time zone), 'YYYY-MM-DD'. */
export function businessToday(): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/** The first day the pay-date calendar lets a visitor pick. */
export function firstSelectablePayDate(): string {
  const today = businessToday();
  let day = today;
  while (!isSelectablePayDate(day, today)) day = addDays(day, 1);
  return day;
}

/** Valid answers per step, client names, as the API takes them. */
export const API_ANSWERS: Record<StepName, Record<string, unknown>> = {
  lgname: { firstName: VISITOR.firstName, lastName: VISITOR.lastName },
  email: { email: VISITOR.email },
  cellphone: { phone: VISITOR.phone },
  besttimecontact: { bestTimeContact: 'MORNING' },
  dob: { dob: '1990-05-15' },
  address: { streetAddress: VISITOR.streetAddress, zipCode: VISITOR.zipCode },
  hometime: { currentResidenceDuration: 36 },
  ownhome: { residenceOwnership: 'NO' },
  incomesource: { incomeSource: 'EMPLOYMENT' },
  emptime: { currentCompanyDuration: 24 },
  unsecureddebtamount: { unsecuredDebtAmount: '5000_9999' },
  payfreequency: { incomePaymentFrequency: 'BIWEEKLY' },
  grossincome: { monthlyIncome: 3500 },
  nextpaydate: { incomeNextDate1: firstSelectablePayDate() },
  empinfor: { employerName: VISITOR.employerName, jobTitle: VISITOR.jobTitle },
  workphone: { employerPhone: VISITOR.workPhone },
  deposit: { getDirectDeposit: 'YES' },
  aba: { routingNumber: VISITOR.routingNumber, bankName: 'Bank of America' },
  banktype: { bankAccountType: 'CHECKING' },
  banktime: { currentBankDuration: 30 },
  bankaccount: { bankAccount: VISITOR.bankAccount },
  driverid: { licenseID: VISITOR.licenseID, issuingState: 'CA' },
  owncar: { ownCar: 'YES' },
  creditscore: { creditScoreRating: 'GOOD' },
  ssn: { socialSecurityNumber: VISITOR.ssn },
};

/**
 * Creates a lead in `context`'s cookie jar and saves every step before `step` through the API, so a test can open
 * `step` directly.
 */
export async function leadBefore(context: BrowserContext, step: StepName): Promise<void> {
  const created = await context.request.post('/api/v1/lead', {
    data: { amount: Number(VISITOR.amount), loanReason: VISITOR.loanReason, zipCode: VISITOR.zipCode },
  });
  assert.equal(created.status(), 201, await created.text());
  for (const earlier of STEP_NAMES.slice(0, STEP_NAMES.indexOf(step))) {
    const saved = await context.request.put(`/api/v1/lead/steps/${earlier}`, { data: API_ANSWERS[earlier] });
    assert.equal(saved.status(), 200, `${earlier}: ${await saved.text()}`);
  }
}

export async function clickNext(page: Page, label = 'Next'): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click();
}

/** Presses Next and waits for the screen `path`. */
export async function nextTo(page: Page, path: string): Promise<void> {
  await clickNext(page);
  await page.waitForURL(`**${path}`);
}

/** Fills the landing form and starts; lands on /lgname. */
export async function completeLanding(page: Page): Promise<void> {
  await page.getByLabel('How much do you need?', { exact: true }).selectOption(VISITOR.amount);
  await page.getByLabel('What is the loan for?', { exact: true }).selectOption(VISITOR.loanReason);
  await page.getByLabel('ZIP code', { exact: true }).fill(VISITOR.zipCode);
  await page.getByText('New York, NY').waitFor();
  await page.getByRole('button', { name: 'Get Started', exact: true }).first().click();
  await page.waitForURL('**/lgname');
}

/**
 * Types into a field with suggestions, then closes the list with Esc, as a visitor who ignores the suggestions
 * does (the open list covers what is under it).
 */
export async function typeIgnoringSuggestions(page: Page, label: string, text: string): Promise<void> {
  const field = page.getByRole('combobox', { name: label, exact: true });
  await field.fill(text);
  await field.press('Escape');
}

/**
 * Chooses a radio card by its label with the keyboard: arrow keys from the group's tab stop until it is checked.
 * Arrow keys only move the selection (docs/product-rules.md §choice-steps), so the visitor is still on the screen and Next saves; a tap
 * would save and move on at once (`tapAnswer`).
 */
export async function choose(page: Page, label: string): Promise<void> {
  const target = page.getByRole('radio', { name: label, exact: true });
  const group = page.getByRole('radiogroup');
  const checked = group.locator('input:checked');
  await ((await checked.count()) > 0 ? checked : group.getByRole('radio').first()).focus();
  for (let presses = 0; !(await target.isChecked()); presses += 1) {
    assert.ok(presses < 20, `arrow keys never reached '${label}'`);
    await page.keyboard.press('ArrowDown');
  }
}

/** Taps a radio card: the answer is saved and the next screen `path` opens, without Next. */
export async function tapAnswer(page: Page, label: string, path: string): Promise<void> {
  await page.getByRole('radio', { name: label, exact: true }).click();
  await page.waitForURL(`**${path}`);
}

/** Answers the screen `step` with the happy path's answer, without pressing Next. */
export async function answer(page: Page, step: StepName): Promise<void> {
  switch (step) {
    case 'lgname':
      await typeIgnoringSuggestions(page, 'First name', VISITOR.firstName);
      await typeIgnoringSuggestions(page, 'Last name', VISITOR.lastName);
      return;
    case 'email':
      await typeIgnoringSuggestions(page, 'Email address', VISITOR.email);
      return;
    case 'cellphone':
      await page.getByLabel('Phone number', { exact: true }).fill(VISITOR.phone);
      return;
    case 'besttimecontact':
      return choose(page, 'Morning');
    case 'dob':
      await page.getByLabel('Month', { exact: true }).selectOption(VISITOR.dob.month);
      await page.getByLabel('Day', { exact: true }).selectOption(VISITOR.dob.day);
      await page.getByLabel('Year', { exact: true }).selectOption(VISITOR.dob.year);
      return;
    case 'address':
      await typeIgnoringSuggestions(page, 'Street address', VISITOR.streetAddress);
      return;
    case 'hometime':
      return choose(page, '3 Years');
    case 'ownhome':
      return choose(page, 'Rent');
    case 'incomesource':
      return choose(page, 'Job income');
    case 'emptime':
      return choose(page, '1-2 years');
    case 'unsecureddebtamount':
      return choose(page, '$5,000-$9,999');
    case 'payfreequency':
      return choose(page, 'Every 2 weeks');
    case 'grossincome':
      return choose(page, '$2,501-$3,500');
    case 'nextpaydate':
      await page.locator(`[data-iso="${firstSelectablePayDate()}"]`).click();
      return;
    case 'empinfor':
      await typeIgnoringSuggestions(page, 'Employer name', VISITOR.employerName);
      await typeIgnoringSuggestions(page, 'Job title', VISITOR.jobTitle);
      return;
    case 'workphone':
      await page.getByLabel('Work phone number', { exact: true }).fill(VISITOR.workPhone);
      return;
    case 'deposit':
    case 'banktype':
    case 'banktime':
      // Their defaults (direct deposit Yes, Checking, more than 2 years) are the happy path's answers.
      return;
    case 'aba':
      await page.getByLabel('Routing number', { exact: true }).fill(VISITOR.routingNumber);
      await page.getByText(/^Bank: /).waitFor();
      return;
    case 'bankaccount':
      await page.getByLabel('Account number', { exact: true }).fill(VISITOR.bankAccount);
      return;
    case 'driverid':
      await page.getByLabel("Driver's license or state ID number", { exact: true }).fill(VISITOR.licenseID);
      await typeIgnoringSuggestions(page, 'Issuing state', VISITOR.issuingState);
      return;
    case 'owncar':
      return choose(page, 'Yes');
    case 'creditscore':
      return choose(page, 'Good (680-719)');
    case 'ssn':
      await page.getByLabel('Social Security Number', { exact: true }).fill(VISITOR.ssn);
      return;
  }
}

import { describe, expect, it } from 'vitest';
import { mailingListContact } from './mailing-list.js';

describe('mailingListContact', () => {
  it('maps the stored lead to the Brevo contact', () => {
    expect(
      mailingListContact(
        { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', loan_reason: 'MEDICAL', ssn: 'x' },
        [7, 12],
      ),
    ).toEqual({
      email: 'ann@example.com',
      attributes: { FIRSTNAME: 'Ann', LASTNAME: 'Lee', LOANREASON: 'MEDICAL' },
      listIds: [7, 12],
      updateEnabled: true,
    });
  });

  it('leaves out what the visitor has not given yet, and needs an email', () => {
    expect(mailingListContact({ email: 'ann@example.com' }, [])).toEqual({
      email: 'ann@example.com',
      attributes: {},
      listIds: [],
      updateEnabled: true,
    });
    expect(mailingListContact({ first_name: 'Ann' }, [1])).toBeUndefined();
  });
});

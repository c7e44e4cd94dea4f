import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  COLLECTION_SETTING_DEFAULTS,
  PAYMENT_DETAILS_MESSAGE,
  SECTOR_LIMIT_MESSAGES,
  type OperatorSettings,
  type Role,
  type User,
} from '@parkpatrol/shared';
import { CurrentUserContext } from '../../../lib/current-user.tsx';
import { OperatorForm } from './operator-settings-screen.tsx';

const OPERATOR: OperatorSettings = {
  creditorName: 'ParkPatrol Parking Ltd',
  creditorAddress: 'PO Box 123\nLeeds\nLS1 1AA',
  creditorPhone: '0113 496 0000',
  creditorEmail: 'charges@parkpatrol.example',
  creditorWebsite: 'https://parkpatrol.example/charge',
  howToPay: 'By bank transfer, sort code 12-34-56, account 12345678.',
  appealsService: 'POPLA',
  appealsServiceContact: 'POPLA, PO Box 1270, Warrington WA4 9RL',
  ...COLLECTION_SETTING_DEFAULTS,
  updatedAt: '2026-02-01T10:00:00.000Z',
  updatedBy: 'Sue Super',
};

const userOf = (role: Role) =>
  ({ id: 'u1', firstName: 'Ada', lastName: 'Admin', email: 'ada@example.com', role, isActive: true, hasPassword: true }) as User;

/** The How to pay field as rendered for a user of the role. */
const howToPayFor = (role: Role) => {
  const html = renderToStaticMarkup(
    <CurrentUserContext.Provider value={userOf(role)}>
      <OperatorForm operator={OPERATOR} onSaved={() => undefined} onEdit={() => undefined} />
    </CurrentUserContext.Provider>,
  );
  return { html, field: /<textarea[^>]*name="howToPay"[^>]*>/.exec(html)?.[0] ?? '' };
};

describe('the operator settings form', () => {
  it('shows the bank details read-only to an Admin, with a note saying who can change them', () => {
    const admin = howToPayFor('ADMIN');
    expect(admin.field).toContain('readOnly=""');
    expect(admin.html).toContain(PAYMENT_DETAILS_MESSAGE);
    // The other terms stay editable.
    expect(/<input[^>]*name="creditorPhone"[^>]*>/.exec(admin.html)?.[0]).not.toContain('readOnly');
  });

  it('lets a Super Admin change them', () => {
    const superAdmin = howToPayFor('SUPER_ADMIN');
    expect(superAdmin.field).not.toContain('readOnly');
    expect(superAdmin.html).not.toContain(PAYMENT_DETAILS_MESSAGE);
  });

  it('shows the chase after the notice to keeper: the days and the debt recovery charge in pounds, with the sector cap', () => {
    const { html } = howToPayFor('ADMIN');
    expect(/<input[^>]*name="reminderAfterDays"[^>]*>/.exec(html)?.[0]).toContain('value="28"');
    expect(/<input[^>]*name="letterBeforeClaimAfterDays"[^>]*>/.exec(html)?.[0]).toContain('value="14"');
    expect(/<input[^>]*name="debtRecoveryFee"[^>]*>/.exec(html)?.[0]).toContain('value="0.00"');
    expect(html).toContain(SECTOR_LIMIT_MESSAGES.debtRecoveryFeePence.replace("'", '&#x27;'));
  });
});

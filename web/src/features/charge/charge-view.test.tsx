import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PublicCharge } from '@parkpatrol/shared';
import ChargeView from './charge-view.tsx';

const CHARGE: PublicCharge = {
  reference: 'PCN-00000123',
  draftReference: 'D-1A2B3C4D',
  vehicleRegistration: 'AB12CDE',
  carPark: { name: 'Riverside', address: '1 Road', postcode: 'LS1 1AA' },
  parkedFrom: '2026-01-10T09:50:00.000Z',
  parkedUntil: '2026-01-10T10:05:00.000Z',
  contravention: 'Parking without permit',
  photos: [],
  state: 'OUTSTANDING',
  chargePence: 10000,
  amountDuePence: 10000,
  paidPence: 0,
  reduced: null,
  appealUntil: null,
  signageTerms: '',
  creditor: null,
  appealsService: null,
  appeal: null,
  onHold: false,
  ifAppealWithdrawn: null,
  namedDriverNotice: null,
  card: null,
  collectionStage: null,
};

const render = (charge: PublicCharge) =>
  renderToStaticMarkup(<ChargeView charge={charge} accessToken="token" onReload={async () => undefined} onClose={() => undefined} />);

describe("the motorist's charge page", () => {
  it("names the ticket's draft reference under the charge's number, so a ticket printed with no signal is recognised", () => {
    const html = render(CHARGE);
    expect(html).toMatch(
      /Parking charge <span class="reference">PCN-00000123<\/span><\/h1><p class="charge-title__ticket">Ticket reference <span class="reference">D-1A2B3C4D<\/span><\/p>/,
    );
  });

  it('says, while an appeal holds the charge, that nothing need be paid until it is decided, and what each decision asks', () => {
    const creditor = {
      name: 'Northgate Parking Ltd',
      address: 'PO Box 1',
      phone: '0113',
      email: 'a@example.com',
      website: 'example.com',
      howToPay: 'By bank transfer.',
    };
    const appeal = {
      reference: 'APL-00000123',
      receivedAt: '2026-01-12T10:00:00.000Z',
      status: 'OPEN' as const,
      isLate: false,
      consideredAt: null,
      decidedAt: null,
      withdrawnAt: null,
      reasons: null,
      reducedChargePence: null,
      reducedPayableUntil: null,
      verificationCode: null,
      appealsServiceUntil: null,
    };
    const held = render({
      ...CHARGE,
      creditor,
      appeal,
      onHold: true,
      amountDuePence: 6000,
      reduced: { amountPence: 6000, until: '2026-01-24' },
      ifAppealWithdrawn: { amountDuePence: 6000, reduced: { amountPence: 6000, until: '2026-02-05' } },
    });
    expect(held).toContain('You do not need to pay this charge while we consider your appeal. We will email you our decision.');
    expect(held).toContain('If we accept it at a reduced amount, you pay that amount within 14 days of our decision.');
    expect(held).toContain(
      'You appealed while the reduced amount applied, so you may still pay £60 for 14 days after our decision; after that the full charge of £100 is due.',
    );
    expect(held).toContain('When you pay, pay Northgate Parking Ltd, quoting <span class="reference">PCN-00000123</span>.');
    expect(held).toContain('>Withdraw appeal</button>');
    // No hold: the page asks for payment as before, and there is no appeal to withdraw.
    const owed = render({ ...CHARGE, creditor });
    // 'How to appeal' sends a letter to "the address below": the Contact section's, printed after it.
    expect(owed.indexOf('by post to the address below')).toBeGreaterThan(0);
    expect(owed.indexOf('<address')).toBeGreaterThan(owed.indexOf('by post to the address below'));
    expect(owed).not.toContain('You do not need to pay');
    expect(owed).toContain('Pay Northgate Parking Ltd, quoting');
    expect(owed).not.toContain('Withdraw appeal');
    // Withdrawn: said so, and nothing to withdraw.
    const withdrawn = render({ ...CHARGE, creditor, appeal: { ...appeal, status: 'WITHDRAWN', withdrawnAt: '2026-01-20T10:00:00.000Z' } });
    expect(withdrawn).toContain('You withdrew your appeal, so we will not decide it.');
    expect(withdrawn).not.toContain('Withdraw appeal');
    expect(withdrawn).not.toContain('You do not need to pay');
  });

  it('says the driver was named and when their notice went, without naming them', () => {
    expect(render(CHARGE)).not.toContain('driver was named');
    const html = render({ ...CHARGE, namedDriverNotice: { postedOn: '2026-02-04', givenOn: '2026-02-06' } });
    expect(html).toContain(
      'The driver was named to us, so we no longer ask the registered keeper to pay. A notice to the named driver was posted on 4 Feb 2026, presumed given on 6 Feb 2026.',
    );
  });

  it('says where the chase after the notice to keeper stands', () => {
    expect(render(CHARGE)).not.toContain('charge-due__stage');
    expect(render({ ...CHARGE, collectionStage: 'LETTER_BEFORE_CLAIM' })).toContain(
      'A letter before claim has been sent. Pay, or reply with the form enclosed with it, within the 30 days it gives',
    );
  });

  it('names none when the notice had no draft reference', () => {
    expect(render({ ...CHARGE, draftReference: null })).not.toContain('Ticket reference');
  });

  it('offers the card payment of what is due now, with its pence, and says when it is being confirmed, paid or part paid', () => {
    expect(render(CHARGE)).not.toContain('by card');
    const card = { payable: true, amountPence: 6000, confirming: false };
    expect(render({ ...CHARGE, amountDuePence: 6000, card })).toContain('>Pay £60.00 by card</button>');
    const confirming = render({ ...CHARGE, card: { ...card, confirming: true } });
    expect(confirming).toContain('Payment being confirmed.');
    expect(confirming).not.toContain('Pay £60.00 by card');
    expect(confirming).toMatch(/role="status" aria-live="polite"/);
    expect(render({ ...CHARGE, state: 'PAID', amountDuePence: 0, card: { payable: false, amountPence: 0, confirming: false } })).toContain(
      '<p class="charge-card__paid">Paid</p>',
    );
    const part = render({
      ...CHARGE,
      paidPence: 6000,
      amountDuePence: 4000,
      card: { payable: true, amountPence: 4000, confirming: false },
    });
    expect(part).toContain('What remains: £40.00');
    expect(part).toContain('Pay £40.00 by card');
  });
});

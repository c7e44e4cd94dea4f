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
  namedDriverNotice: null,
  card: null,
  collectionStage: null,
};

const render = (charge: PublicCharge) =>
  renderToStaticMarkup(<ChargeView charge={charge} accessToken="token" onReload={async () => undefined} onClose={() => undefined} />);

describe("the motorist's charge page", () => {
  it("names the ticket's draft reference under the charge's number, so a ticket printed with no signal is recognised", () => {
    const html = render(CHARGE);
    expect(html).toMatch(/Parking charge PCN-00000123<\/h1><p class="charge-title__ticket">Ticket reference D-1A2B3C4D<\/p>/);
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

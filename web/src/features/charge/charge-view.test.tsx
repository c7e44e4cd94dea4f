import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PublicCharge } from '@parkpatrol/shared';
import ChargeView from './charge-view.tsx';

const CHARGE: PublicCharge = {
  reference: 'PCN-00000123',
  draftReference: 'D-1A2B3C4D',
  vehicleRegistration: 'AB12CDE',
  carPark: { name: 'Riverside', address: '1 Road', postcode: 'LS1 1AA' },
  parkedFrom: null,
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
};

const render = (charge: PublicCharge) =>
  renderToStaticMarkup(<ChargeView charge={charge} accessToken="token" onReload={async () => undefined} onClose={() => undefined} />);

describe("the motorist's charge page", () => {
  it("names the ticket's draft reference under the charge's number, so a ticket printed with no signal is recognised", () => {
    const html = render(CHARGE);
    expect(html).toMatch(/Parking charge PCN-00000123<\/h1><p class="charge-title__ticket">Ticket reference D-1A2B3C4D<\/p>/);
  });

  it('names none when the notice had no draft reference', () => {
    expect(render({ ...CHARGE, draftReference: null })).not.toContain('Ticket reference');
  });
});

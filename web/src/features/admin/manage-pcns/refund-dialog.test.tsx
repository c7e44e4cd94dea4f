import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Payment, Pcn } from '@parkpatrol/shared';
import { PaymentsCard } from './payments-card.tsx';
import { RefundDialog } from './refund-dialog.tsx';

const PAYMENT: Payment = {
  id: 'p1',
  amountPence: 6_000,
  paidOn: '2026-02-03',
  method: 'BANK_TRANSFER',
  reference: 'BACS 1',
  recordedBy: 'Pam Payments',
  createdAt: '2026-02-03T10:00:00.000Z',
  overpaidPence: 0,
  takenOnline: false,
  refunds: [],
  refundedPence: 0,
};

const pcnWith = (payments: Payment[], status: Pcn['status']) =>
  ({
    id: 'n1',
    status,
    issuedAt: '2026-02-01T10:00:00.000Z',
    createdAt: '2026-02-01T10:00:00.000Z',
    payments: {
      payments,
      paidPence: payments.reduce((sum, payment) => sum + payment.amountPence - payment.refundedPence, 0),
      overpaidPence: 0,
    },
  }) as Pcn;

const dialog = (payment: Payment) =>
  renderToStaticMarkup(<RefundDialog pcnId="n1" payment={payment} isOpen onClose={() => undefined} onChanged={() => undefined} />);

describe('the refund dialog', () => {
  it('starts at what is left of the payment and asks for a reason', () => {
    const html = dialog({
      ...PAYMENT,
      refundedPence: 1_500,
      refunds: [
        {
          id: 'r1',
          paymentId: 'p1',
          amountPence: 1_500,
          reason: 'Overpaid',
          method: 'BY_HAND',
          status: 'SUCCEEDED',
          stripeRefundId: null,
          recordedBy: 'Pam Payments',
          createdAt: '2026-02-04T10:00:00.000Z',
        },
      ],
    });
    expect(/<input[^>]*name="amountPence"[^>]*>/.exec(html)?.[0]).toContain('value="45.00"');
    expect(html).toContain('At most £45.00.');
    expect(html).toContain('of which £15.00 already refunded');
    expect(html).toMatch(/<textarea[^>]*name="reason"[^>]*aria-required="true"/);
    // Money taken by the operator's own means goes back by them: no card processor choice.
    expect(html).not.toContain('card processor');
  });

  it('offers to only record a card payment taken online that was refunded in the processor', () => {
    expect(dialog({ ...PAYMENT, method: 'CARD', takenOnline: true })).toContain('Already refunded in the card processor');
  });

  it('is offered on each payment with something left, and by a notice once a paid charge is cancelled', () => {
    const issued = renderToStaticMarkup(<PaymentsCard pcn={pcnWith([PAYMENT], 'ISSUED')} onChanged={() => undefined} />);
    expect(issued).toContain('aria-label="Refund the payment of £60.00 on 3 Feb 2026"');
    expect(issued).not.toContain('was cancelled');

    const cancelled = renderToStaticMarkup(<PaymentsCard pcn={pcnWith([PAYMENT], 'CANCELLED')} onChanged={() => undefined} />);
    expect(cancelled).toContain('This charge was cancelled after £60.00 was paid: refund it');
    expect(cancelled).toContain('Refund £60.00');

    const refunded = { ...PAYMENT, refundedPence: 6_000 };
    const settled = renderToStaticMarkup(<PaymentsCard pcn={pcnWith([refunded], 'CANCELLED')} onChanged={() => undefined} />);
    expect(settled).not.toContain('was cancelled');
    expect(settled).not.toContain('Refund the payment');
  });
});

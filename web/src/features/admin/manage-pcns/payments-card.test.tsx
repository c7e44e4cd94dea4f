import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { PAYMENT_MESSAGES, type Payment, type Pcn } from '@parkpatrol/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { createAttemptKey } from '../../../lib/attempt-key.ts';
import { PAYMENT_ALREADY_RECORDED, sendPaymentAttempt } from './payment-attempt.ts';
import { PaymentsCard } from './payments-card.tsx';

const PAYMENT: Payment = {
  id: 'p1',
  amountPence: 2_500,
  paidOn: '2026-02-03',
  method: 'CARD',
  reference: 'TXN-7',
  recordedBy: 'Pam Payments',
  createdAt: '2026-02-03T10:00:00.000Z',
  overpaidPence: 0,
  takenOnline: false,
  refunds: [],
  refundedPence: 0,
};

/** The parts of a notice the card reads; the rest of a Pcn is other cards'. */
const pcnWith = (payments: Payment[], status: Pcn['status'] = 'SUBMITTED') =>
  ({
    id: 'n1',
    status,
    issuedAt: '2026-02-01T10:00:00.000Z',
    createdAt: '2026-02-01T10:00:00.000Z',
    payments: {
      payments,
      paidPence: payments.reduce((sum, payment) => sum + payment.amountPence, 0),
      overpaidPence: payments.reduce((sum, payment) => sum + payment.overpaidPence, 0),
    },
  }) as Pcn;

const render = (pcn: Pcn) => renderToStaticMarkup(<PaymentsCard pcn={pcn} onChanged={() => undefined} />);

describe('the payments card', () => {
  it('says a payment was more than was due, and by how much', () => {
    expect(render(pcnWith([PAYMENT]))).not.toContain('More than was due');
    const html = render(pcnWith([PAYMENT, { ...PAYMENT, id: 'p2', amountPence: 10_000, overpaidPence: 6_500 }], 'PAID'));
    expect(html).toContain('More than was due, by £65: consider a refund');
    expect(html).toContain('Paid more than was due, by £65 in all: consider a refund.');
  });

  it('after a recorded send whose answer was lost and an edited amount, lists the payment, says so plainly and takes the next try', async () => {
    let keys = 0;
    const attempt = createAttemptKey(() => `key-${++keys}`);
    const server = new Map<string, number>([['key-1', 2_500]]);
    const shown: Pcn[] = [];
    const record = async (key: string, amountPence: number) => {
      const earlier = server.get(key);
      if (earlier !== undefined && earlier !== amountPence) {
        throw new ApiError(PAYMENT_MESSAGES.keyForAnotherPayment, { status: 422, code: 'IDEMPOTENCY_MISMATCH' });
      }
      server.set(key, amountPence);
      return pcnWith([...server.values()].map((amount, index) => ({ ...PAYMENT, id: `p${index}`, amountPence: amount })));
    };
    const send = (amountPence: number) =>
      sendPaymentAttempt({
        attempt,
        record: (key) => record(key, amountPence),
        reload: async () => pcnWith([...server.values()].map((amount, index) => ({ ...PAYMENT, id: `p${index}`, amountPence: amount }))),
        onChanged: (updated) => shown.push(updated),
      });
    // The first send (£25) was recorded under key-1; the admin, not knowing, changes it to £30.
    const refused = await send(3_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe(PAYMENT_ALREADY_RECORDED);
    expect((refused as ApiError).message).not.toContain('Idempotency');
    // The recorded payment is listed now.
    expect(render(shown.at(-1)!)).toContain('£25');
    // A new key: the next try is recorded, not refused again.
    await send(3_000);
    expect(attempt.current).toBe('key-3');
    expect(shown.at(-1)!.payments?.payments.map((payment) => payment.amountPence)).toEqual([2_500, 3_000]);
  });
});

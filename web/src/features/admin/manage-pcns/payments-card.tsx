import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  formatCalendarDate,
  formatPence,
  overpaidNote,
  paidOnProblem,
  parsePounds,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  paymentInputSchema,
  penceShown,
  REFUND_METHOD_LABELS,
  REFUND_STATUS_LABELS,
  refundAfterCancellationNote,
  ukDate,
  type Payment,
  type Pcn,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { DateField } from '../../../lib/date-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { createAttemptKey } from '../../../lib/attempt-key.ts';
import { useFormSubmit, type Parsed } from '../../../lib/use-form-submit.ts';
import { PAYMENT_FAILED, recordPayment } from '../api/keepers.ts';
import { getAdminPcn } from '../api/pcns.ts';
import { sendPaymentAttempt } from './payment-attempt.ts';
import { leftToRefund, RefundDialog } from './refund-dialog.tsx';

type PaymentInput = z.output<typeof paymentInputSchema>;

const METHOD_OPTIONS = PAYMENT_METHODS.map((id) => ({ id, label: PAYMENT_METHOD_LABELS[id] }));

/**
 * Payments taken by the operator's own means, recorded one by one; the charge is paid once they
 * meet what is due. Each payment shows its refunds and offers one of what is left of it (a
 * cancelled charge that was paid says so first). Each attempt has its key, kept across retries, so a double click or a lost
 * answer records one payment; the day paid is within the charge's life; a payment of more than
 * was due is recorded and flagged with by how much.
 */
export function PaymentsCard({ pcn, onChanged }: { pcn: Pcn; onChanged: (updated: Pcn) => void }) {
  const summary = pcn.payments ?? { payments: [], paidPence: 0, overpaidPence: 0 };
  const [attempt] = useState(createAttemptKey);
  const today = ukDate(new Date());
  const issuedOn = ukDate(pcn.issuedAt ?? pcn.createdAt);
  const canPay = !['PAID', 'CANCELLED', 'REJECTED'].includes(pcn.status);
  const [amount, setAmount] = useState('');
  const [paidOn, setPaidOn] = useState(ukDate(new Date()));
  const [method, setMethod] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [isRefundOpen, setRefundOpen] = useState(false);
  const openRefund = (payment: Payment) => {
    setRefunding(payment);
    setRefundOpen(true);
  };
  // Money kept on a charge that was cancelled (an appeal accepted after payment): offered back.
  const refundable = summary.payments.find((payment) => leftToRefund(payment) > 0);
  const offerRefund = pcn.status === 'CANCELLED' && summary.paidPence > 0 && refundable !== undefined;
  const form = useFormSubmit({ fallbackMessage: PAYMENT_FAILED });
  const handleSubmit = form.handle(
    (): Parsed<PaymentInput> => {
      const pence = parsePounds(amount);
      if (pence === null) return { success: false, fieldErrors: { amountPence: 'Enter the amount paid, like 60 or 60.50' } };
      const parsed = paymentInputSchema.safeParse({ amountPence: pence, paidOn, method, reference });
      const dayWrong = parsed.success ? paidOnProblem(parsed.data.paidOn, issuedOn, today) : null;
      return dayWrong ? { success: false, fieldErrors: { paidOn: dayWrong } } : parsed;
    },
    async (payment) => {
      // The key of this attempt: sent again as it is if this send fails, replaced once it is recorded.
      await sendPaymentAttempt({
        attempt,
        record: (key) => recordPayment(pcn.id, payment, key),
        reload: () => getAdminPcn(pcn.id),
        onChanged,
      });
      setAmount('');
      setReference('');
    },
  );
  return (
    <Card title="Payments" titleId="review-payments-title">
      <div className="form-stack">
        {summary.payments.length === 0 ? (
          <p className="muted">No payments recorded.</p>
        ) : (
          <ul className="payments-list">
            {summary.payments.map((payment) => (
              <li key={payment.id}>
                <strong>{formatPence(payment.amountPence)}</strong> by {PAYMENT_METHOD_LABELS[payment.method].toLowerCase()} on{' '}
                {formatCalendarDate(payment.paidOn)}
                {payment.reference ? ` (${payment.reference})` : ''}
                {payment.recordedBy ? `, recorded by ${payment.recordedBy}` : ''}
                {payment.overpaidPence > 0 ? <strong>. {overpaidNote(payment.overpaidPence)}</strong> : null}
                {payment.refunds.length > 0 ? (
                  <ul className="payments-list__refunds" aria-label="Refunds of this payment">
                    {payment.refunds.map((refund) => (
                      <li key={refund.id} className={refund.status === 'FAILED' ? 'muted' : undefined}>
                        Refunded {penceShown(refund.amountPence)} ({REFUND_METHOD_LABELS[refund.method].toLowerCase()}
                        {refund.status === 'SUCCEEDED' ? '' : `, ${REFUND_STATUS_LABELS[refund.status].toLowerCase()}`}) on{' '}
                        {formatCalendarDate(ukDate(refund.createdAt))} by {refund.recordedBy}: {refund.reason}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {leftToRefund(payment) > 0 ? (
                  <Button
                    variant="text"
                    className="payments-list__refund"
                    onPress={() => openRefund(payment)}
                    aria-label={`Refund the payment of ${penceShown(payment.amountPence)} on ${formatCalendarDate(payment.paidOn)}`}
                  >
                    Refund
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {summary.paidPence > 0 ? <p>Paid so far: {formatPence(summary.paidPence)}</p> : null}
        {offerRefund ? (
          <Alert tone="info">
            <span className="payments-card__offer">
              {refundAfterCancellationNote(summary.paidPence)}
              <Button variant="secondary" onPress={() => openRefund(refundable)}>
                Refund {penceShown(leftToRefund(refundable))}
              </Button>
            </span>
          </Alert>
        ) : null}
        {summary.overpaidPence > 0 ? (
          <Alert tone="info">{`Paid more than was due, by ${formatPence(summary.overpaidPence)} in all: consider a refund.`}</Alert>
        ) : null}
        {canPay ? (
          <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-label="Record a payment">
            {form.formError ? <Alert>{form.formError}</Alert> : null}
            <div className="form-grid">
              <TextField
                label="Amount (£)"
                name="amountPence"
                inputMode="decimal"
                value={amount}
                onChange={setAmount}
                errorMessage={form.errors.amountPence}
                isRequired
              />
              <DateField
                label="Paid on"
                name="paidOn"
                value={paidOn}
                onChange={setPaidOn}
                min={issuedOn}
                max={today}
                errorMessage={form.errors.paidOn}
                isRequired
              />
              <SelectField
                label="Method"
                name="method"
                options={METHOD_OPTIONS}
                value={method}
                placeholder="Choose"
                onChange={setMethod}
                errorMessage={form.errors.method}
                isRequired
              />
              <TextField
                label="Payment reference"
                name="reference"
                value={reference}
                onChange={setReference}
                errorMessage={form.errors.reference}
              />
            </div>
            <div className="form-actions">
              <Button type="submit" isDisabled={form.isBusy}>
                {form.isBusy ? 'Recording...' : 'Record payment'}
              </Button>
            </div>
          </Form>
        ) : null}
      </div>
      <RefundDialog pcnId={pcn.id} payment={refunding} isOpen={isRefundOpen} onClose={() => setRefundOpen(false)} onChanged={onChanged} />
    </Card>
  );
}

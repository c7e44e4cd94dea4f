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
  ukDate,
  type Pcn,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { createAttemptKey } from '../../../lib/attempt-key.ts';
import { useFormSubmit, type Parsed } from '../../../lib/use-form-submit.ts';
import { PAYMENT_FAILED, recordPayment } from '../api/keepers.ts';
import { getAdminPcn } from '../api/pcns.ts';
import { sendPaymentAttempt } from './payment-attempt.ts';

type PaymentInput = z.output<typeof paymentInputSchema>;

const METHOD_OPTIONS = PAYMENT_METHODS.map((id) => ({ id, label: PAYMENT_METHOD_LABELS[id] }));

/**
 * Payments taken by the operator's own means, recorded one by one; the charge is paid once they
 * meet what is due. Each attempt has its key, kept across retries, so a double click or a lost
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
              </li>
            ))}
          </ul>
        )}
        {summary.paidPence > 0 ? <p>Paid so far: {formatPence(summary.paidPence)}</p> : null}
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
              <TextField
                label="Paid on"
                name="paidOn"
                type="date"
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
    </Card>
  );
}

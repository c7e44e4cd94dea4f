import { useState } from 'react';
import {
  formatCalendarDate,
  parsePounds,
  PAYMENT_METHOD_LABELS,
  penceShown,
  REFUND_TEXTS,
  refundInputSchema,
  refundTooMuch,
  type Payment,
  type Pcn,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import { Alert } from '../../../lib/alert.tsx';
import { createAttemptKey } from '../../../lib/attempt-key.ts';
import { Button } from '../../../lib/button.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit, type Parsed } from '../../../lib/use-form-submit.ts';
import { refundPayment } from '../api/money.ts';
import { getAdminPcn } from '../api/pcns.ts';
import { Checkbox } from '../components/checkbox.tsx';
import { sendPaymentAttempt } from './payment-attempt.ts';

type RefundInput = z.output<typeof refundInputSchema>;

/** What is left of a payment to refund: its amount less its refunds that did not fail. */
export function leftToRefund(payment: Payment): number {
  return payment.amountPence - payment.refundedPence;
}

/** '60.00': an amount as the amount field shows it. */
function poundsInput(pence: number): string {
  return (pence / 100).toFixed(2);
}

/**
 * The refund of one payment, in a dialog: the amount starts at what is left of it, a reason is
 * required, and each attempt has its Idempotency-Key, kept across retries, so a double click or a
 * lost answer refunds once. A card payment taken online is refunded through the card processor;
 * the admin may instead record one already refunded in the processor's own dashboard.
 */
export function RefundDialog({
  pcnId,
  payment,
  isOpen,
  onClose,
  onChanged,
}: {
  pcnId: string;
  payment: Payment | null;
  isOpen: boolean;
  onClose: () => void;
  onChanged: (updated: Pcn) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog title="Refund a payment" isOpen={isOpen && payment !== null} onClose={onClose} isBusy={busy}>
      {payment ? (
        <RefundForm key={payment.id} pcnId={pcnId} payment={payment} onClose={onClose} onChanged={onChanged} onBusy={setBusy} />
      ) : null}
    </ModalDialog>
  );
}

function RefundForm({
  pcnId,
  payment,
  onClose,
  onChanged,
  onBusy,
}: {
  pcnId: string;
  payment: Payment;
  onClose: () => void;
  onChanged: (updated: Pcn) => void;
  onBusy: (busy: boolean) => void;
}) {
  const left = leftToRefund(payment);
  const [attempt] = useState(createAttemptKey);
  const [amount, setAmount] = useState(poundsInput(left));
  const [reason, setReason] = useState('');
  const [byHand, setByHand] = useState(false);
  const form = useFormSubmit({ fallbackMessage: REFUND_TEXTS.failed });
  const handleSubmit = form.handle(
    (): Parsed<RefundInput> => {
      const pence = parsePounds(amount);
      if (pence === null || pence === 0)
        return { success: false, fieldErrors: { amountPence: 'Enter the amount to refund, like 60 or 60.50' } };
      if (pence > left) return { success: false, fieldErrors: { amountPence: refundTooMuch(left) } };
      return refundInputSchema.safeParse({ paymentId: payment.id, amountPence: pence, reason, byHand: payment.takenOnline && byHand });
    },
    async (refund) => {
      onBusy(true);
      try {
        await sendPaymentAttempt({
          attempt,
          record: (key) => refundPayment(pcnId, refund, key),
          reload: () => getAdminPcn(pcnId),
          onChanged,
          alreadyRecorded: REFUND_TEXTS.alreadyRecorded,
        });
        onClose();
      } finally {
        onBusy(false);
      }
    },
  );
  return (
    <form className="form-stack" onSubmit={handleSubmit} noValidate aria-label="Refund a payment">
      <p>
        {penceShown(payment.amountPence)} by {PAYMENT_METHOD_LABELS[payment.method].toLowerCase()} on {formatCalendarDate(payment.paidOn)}
        {payment.refundedPence > 0 ? `, of which ${penceShown(payment.refundedPence)} already refunded` : ''}.
      </p>
      {form.formError ? <Alert>{form.formError}</Alert> : null}
      <TextField
        label="Amount to refund (£)"
        name="amountPence"
        inputMode="decimal"
        value={amount}
        onChange={setAmount}
        errorMessage={form.errors.amountPence}
        description={`At most ${penceShown(left)}.`}
        isRequired
      />
      <TextField
        label="Reason"
        name="reason"
        value={reason}
        onChange={setReason}
        errorMessage={form.errors.reason}
        isMultiline
        rows={3}
        maxLength={500}
        description="Kept in the audit trail with the refund."
        isRequired
      />
      {payment.takenOnline ? (
        <Checkbox isSelected={byHand} onChange={setByHand} name="byHand">
          Already refunded in the card processor&apos;s own dashboard: only record it here
        </Checkbox>
      ) : (
        <p className="muted">Give the money back by the operator&apos;s own means; this records that it was.</p>
      )}
      <div className="button-row">
        <Button variant="secondary" onPress={onClose} isDisabled={form.isBusy}>
          Cancel
        </Button>
        <Button type="submit" isDisabled={form.isBusy}>
          {form.isBusy ? 'Refunding...' : `Refund`}
        </Button>
      </div>
    </form>
  );
}

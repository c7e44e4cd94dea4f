/**
 * Payments an admin records against a charge: taken by the operator's own means (the 'how to
 * pay' text says which), kept one by one so part payments add up, and the charge is paid once
 * they meet what was due on the day of the last one.
 */
export const PAYMENT_METHODS = ['CARD', 'BANK_TRANSFER', 'CHEQUE', 'CASH', 'OTHER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  CARD: 'Card',
  BANK_TRANSFER: 'Bank transfer',
  CHEQUE: 'Cheque',
  CASH: 'Cash',
  OTHER: 'Other',
};

export type Payment = {
  id: string;
  amountPence: number;
  paidOn: string;
  method: PaymentMethod;
  reference: string;
  recordedBy: string | null;
  createdAt: string;
};

export type PaymentSummary = { payments: Payment[]; paidPence: number };

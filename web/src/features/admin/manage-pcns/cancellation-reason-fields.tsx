import { CANCELLATION_MESSAGES, CANCELLATION_REASON_LABELS, CANCELLATION_REASONS, type CancellationReason } from '@parkpatrol/shared';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import type { CancellationChoice } from '../api/pcns.ts';

const OPTIONS = CANCELLATION_REASONS.map((reason) => ({ id: reason, label: CANCELLATION_REASON_LABELS[reason] }));

export const NO_CANCELLATION: CancellationChoice = { reason: null, note: '' };

/** The same rule as the server's schema, so the admin is told beside the field before anything is sent. */
export function cancellationErrors(choice: CancellationChoice): { reason?: string; note?: string } {
  if (!choice.reason) return { reason: CANCELLATION_MESSAGES.reasonRequired };
  if (choice.reason === 'OTHER' && !choice.note.trim()) return { note: CANCELLATION_MESSAGES.noteRequired };
  return {};
}

/** Why a charge is cancelled (decision 0042): a reason always, and a note that says it for Other. */
export function CancellationReasonFields({
  value,
  onChange,
  errors,
  isDisabled,
}: {
  value: CancellationChoice;
  onChange: (value: CancellationChoice) => void;
  errors: { reason?: string | undefined; note?: string | undefined };
  isDisabled?: boolean;
}) {
  return (
    <>
      <SelectField
        label="Cancellation reason"
        placeholder="Choose a reason"
        options={OPTIONS}
        value={value.reason}
        onChange={(reason) => onChange({ ...value, reason: reason as CancellationReason | null })}
        errorMessage={errors.reason ?? null}
        isRequired
        isDisabled={isDisabled}
      />
      <TextField
        label="Cancellation note"
        description={value.reason === 'OTHER' ? 'Required for Other: say why.' : 'Optional: anything the reason does not say.'}
        isMultiline
        rows={2}
        value={value.note}
        onChange={(note) => onChange({ ...value, note })}
        errorMessage={errors.note ?? null}
        isRequired={value.reason === 'OTHER'}
        isDisabled={isDisabled}
      />
    </>
  );
}

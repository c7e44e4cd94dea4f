import { TriangleAlert } from 'lucide-react';
import { DUPLICATE_REASON_MAX_LENGTH, type PcnDuplicateMatch } from '@parkpatrol/shared';
import { TextField } from '../../../lib/text-field.tsx';
import { duplicateMatchText, ONE_CHARGE_TEXT } from './duplicate-rules.ts';
import './evidence.css';

export type DuplicateWarningProps = {
  /** useDuplicateCheck's answer; nothing shows when it is empty (offline, failed, or none). */
  duplicates: readonly Pick<PcnDuplicateMatch, 'id' | 'pcnNumber' | 'status'>[];
  /** The draft's duplicateReason. */
  value: string;
  onChange: (value: string) => void;
  /** duplicateReasonProblem's message after a refused Next. */
  errorMessage?: string | null;
};

/**
 * One charge per parking event: names each notice already filed for this
 * vehicle at this car park today, with its status, and asks why a second one is right.
 */
export function DuplicateWarning({ duplicates, value, onChange, errorMessage }: DuplicateWarningProps) {
  if (duplicates.length === 0) return null;
  return (
    <div className="duplicate-warning">
      {/* Polite: it arrives while the officer is typing and must not cut them off. */}
      <div role="status" className="duplicate-warning__message">
        <TriangleAlert aria-hidden="true" size={20} className="duplicate-warning__icon" />
        <div>
          {duplicates.map((match) => (
            <p key={match.id}>{duplicateMatchText(match)}</p>
          ))}
          <p>
            <strong>{ONE_CHARGE_TEXT}</strong> If this is a new parking event (the vehicle left and came back), say so below.
          </p>
        </div>
      </div>
      <TextField
        label="Reason for a second notice"
        description="Admins see this with both notices."
        value={value}
        onChange={onChange}
        errorMessage={errorMessage}
        maxLength={DUPLICATE_REASON_MAX_LENGTH}
        isMultiline
        rows={3}
        isRequired
      />
    </div>
  );
}

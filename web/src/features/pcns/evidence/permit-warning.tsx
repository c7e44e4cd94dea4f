import type { RefObject } from 'react';
import { ShieldAlert } from 'lucide-react';
import { PERMIT_OVERRIDE_REASON_MAX_LENGTH, PERMIT_TEXTS, permitWarning, type PhonePermit } from '@parkpatrol/shared';
import { TextField } from '../../../lib/text-field.tsx';
import './evidence.css';

export type PermitWarningProps = {
  /** The permit the registration holds here now, from the phone's list (lib/permits-offline.ts). */
  permit: Pick<PhonePermit, 'kind' | 'validUntil'> | null;
  /** The server's refusal (409 PERMIT_HOLDER) of this notice, when the phone's list did not know the permit. */
  serverMessage?: string | null;
  value: string;
  onChange: (value: string) => void;
  errorMessage?: string | null;
  /** The reason's field, for the wizard to focus when it is missing. */
  inputRef?: RefObject<HTMLElement | null>;
};

/**
 * On the vehicle step, before any photo: the registration holds a permit valid here, so the
 * officer does not issue, or gives the reason the notice goes on anyway (decision 0041).
 */
export function PermitWarning({ permit, serverMessage, value, onChange, errorMessage, inputRef }: PermitWarningProps) {
  const message = permit ? permitWarning(permit) : (serverMessage ?? null);
  // Kept while a reason is typed, so clearing the registration's last letter does not lose it.
  if (!message && !value) return null;
  return (
    <div className="duplicate-warning permit-warning">
      {message ? (
        // Assertive: it must be heard before the officer turns to the camera.
        <div role="alert" className="duplicate-warning__message">
          <ShieldAlert aria-hidden="true" size={20} className="duplicate-warning__icon" />
          <p>
            <strong>{message}</strong>
          </p>
        </div>
      ) : null}
      <TextField
        label={PERMIT_TEXTS.overrideLabel}
        description={PERMIT_TEXTS.overrideHelp}
        value={value}
        onChange={onChange}
        errorMessage={errorMessage}
        inputRef={inputRef as RefObject<HTMLInputElement & HTMLTextAreaElement>}
        maxLength={PERMIT_OVERRIDE_REASON_MAX_LENGTH}
        isMultiline
        rows={3}
        isRequired={Boolean(message)}
      />
    </div>
  );
}

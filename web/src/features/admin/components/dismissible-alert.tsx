import { X } from 'lucide-react';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';

export type Notice = { tone: 'success' | 'error'; text: string };

/** Spec (Client Onboarding): a success or error message the admin can close. */
export function DismissibleAlert({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  if (!notice) return null;
  return (
    <Alert tone={notice.tone} className="alert--dismissible">
      <span>{notice.text}</span>
      <Button variant="icon" className="alert__close" aria-label="Dismiss message" onPress={onDismiss}>
        <X aria-hidden="true" size={18} />
      </Button>
    </Alert>
  );
}

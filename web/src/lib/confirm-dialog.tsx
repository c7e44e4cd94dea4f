import { useId, useState, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

export type ConfirmDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Closes the dialog when it resolves; a failure is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void> | void;
};

/** Asks before something that cannot be undone; Cancel has the focus, as the safe choice. */
export function ConfirmDialog({ isOpen, onClose, title, message, confirmLabel, cancelLabel = 'Cancel', onConfirm }: ConfirmDialogProps) {
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const messageId = useId();

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      isDismissable={!isBusy}
      className="confirm"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
    >
      <div className="confirm__dialog">
        <h2 id={titleId} className="confirm__title">
          {title}
        </h2>
        <div id={messageId} className="confirm__message">
          {message}
        </div>
        {error ? (
          <p role="alert" className="field__error">
            {error}
          </p>
        ) : null}
        <div className="confirm__actions">
          <Button variant="secondary" onPress={onClose} isDisabled={isBusy}>
            {cancelLabel}
          </Button>
          <Button variant="primary" isDisabled={isBusy} onPress={() => void confirm()}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

import { useId, useState, type ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { ModalDialog } from './dialog.tsx';

export type ConfirmDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** The way out, best naming what is kept ('Keep PCN'), so it is never two 'Cancel's side by side. */
  cancelLabel?: string;
  /** Shown on the confirm button while the action runs. */
  busyLabel?: string;
  /**
   * A promise is awaited: the dialog shows it running, closes when it resolves, and shows the
   * failure and stays open when it rejects. Anything else leaves running, errors and closing to
   * the caller, through `isBusy`, `error` and `isOpen`.
   */
  onConfirm: () => Promise<void> | void;
  isBusy?: boolean;
  error?: string | null;
  /** Another way out offered beside the confirm button (e.g. deactivate instead of delete). */
  extraAction?: ReactNode;
  /**
   * What is read before deciding, below the message (a letter as it will be sent): not part of
   * the dialog's description, so a screen reader announces the question, not the whole letter.
   */
  details?: ReactNode;
  size?: 'small' | 'large';
};

/**
 * THE confirmation of the app: asks before something that cannot be undone. The way out comes
 * first and has the focus, as the safe choice.
 */
export function ConfirmDialog({
  isOpen,
  onClose,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  busyLabel,
  onConfirm,
  isBusy = false,
  error = null,
  extraAction,
  details,
  size,
}: ConfirmDialogProps) {
  const [isRunning, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const messageId = useId();
  const busy = isBusy || isRunning;
  const shownError = error ?? failure;

  async function confirm() {
    const result = onConfirm();
    if (!(result instanceof Promise)) return;
    setRunning(true);
    setFailure(null);
    try {
      await result;
      onClose();
    } catch (reason) {
      setFailure(reason instanceof Error ? reason.message : String(reason));
    } finally {
      setRunning(false);
    }
  }

  return (
    <ModalDialog title={title} isOpen={isOpen} onClose={onClose} role="alertdialog" isBusy={busy} aria-describedby={messageId} size={size}>
      <div id={messageId} className="modal__body">
        {message}
      </div>
      {details}
      {shownError ? <Alert>{shownError}</Alert> : null}
      <div className="modal__actions">
        <Button variant="secondary" onPress={onClose} isDisabled={busy}>
          {cancelLabel}
        </Button>
        {extraAction}
        <Button variant="primary" isDisabled={busy} onPress={() => void confirm()}>
          {busy && busyLabel ? busyLabel : confirmLabel}
        </Button>
      </div>
    </ModalDialog>
  );
}

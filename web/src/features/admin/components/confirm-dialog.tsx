import type { ReactNode } from 'react';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { ModalDialog } from './modal-dialog.tsx';

type ConfirmDialogProps = {
  title: string;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  confirmLabel: string;
  /** The way out, naming what is kept ('Keep PCN'), so it is never two 'Cancel's side by side. */
  keepLabel: string;
  busyLabel: string;
  onConfirm: () => void;
  isBusy: boolean;
  error?: string | null;
  children: ReactNode;
  /** Another way out offered beside the confirm button (e.g. deactivate instead of delete). */
  extraAction?: ReactNode;
};

/** Asks before anything that cannot be undone; stays open and shows the server's refusal. */
export function ConfirmDialog({
  title,
  isOpen,
  onOpenChange,
  confirmLabel,
  keepLabel,
  busyLabel,
  onConfirm,
  isBusy,
  error,
  children,
  extraAction,
}: ConfirmDialogProps) {
  return (
    <ModalDialog title={title} isOpen={isOpen} onOpenChange={onOpenChange} role="alertdialog" isBusy={isBusy}>
      <div className="modal__body">{children}</div>
      {error ? <Alert>{error}</Alert> : null}
      <div className="modal__actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={isBusy}>
          {keepLabel}
        </Button>
        {extraAction}
        <Button variant="primary" onPress={onConfirm} isDisabled={isBusy} autoFocus>
          {isBusy ? busyLabel : confirmLabel}
        </Button>
      </div>
    </ModalDialog>
  );
}

import { useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

type Props = {
  /** The button's own text, e.g. 'Discard'. */
  children: ReactNode;
  /** Accessible name when the visible text alone is ambiguous in a list ('Discard AB12CDE'). */
  'aria-label'?: string;
  variant?: ButtonVariant;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => Promise<void> | void;
};

/** A button that asks first: for actions that cannot be undone, like throwing a notice away. */
export function ConfirmButton({ children, variant = 'text', ...dialog }: Props) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} aria-label={dialog['aria-label']} aria-haspopup="dialog" onPress={() => setOpen(true)}>
        {children}
      </Button>
      {/* Mounted while open only: each opening starts without the last one's error. */}
      {isOpen ? <ConfirmDialog {...dialog} isOpen onClose={() => setOpen(false)} /> : null}
    </>
  );
}

import { useId, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button.tsx';
import { Dialog } from './dialog.tsx';

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
export function ConfirmButton({ children, variant = 'text', title, message, confirmLabel, cancelLabel = 'Cancel', onConfirm, ...rest }: Props) {
  const [isOpen, setOpen] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const messageId = useId();

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        variant={variant}
        aria-label={rest['aria-label']}
        aria-haspopup="dialog"
        onPress={() => {
          setError(null);
          setOpen(true);
        }}
      >
        {children}
      </Button>
      <Dialog isOpen={isOpen} onClose={() => setOpen(false)} isDismissable={!isBusy} className="confirm" role="alertdialog" aria-labelledby={titleId} aria-describedby={messageId}>
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
            <Button variant="secondary" onPress={() => setOpen(false)} isDisabled={isBusy}>
              {cancelLabel}
            </Button>
            <Button variant="primary" isDisabled={isBusy} onPress={() => void confirm()}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

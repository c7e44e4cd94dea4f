import { useState, type ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button, type ButtonVariant } from './button.tsx';

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
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <DialogTrigger onOpenChange={() => setError(null)}>
      <Button variant={variant} aria-label={rest['aria-label']}>
        {children}
      </Button>
      <ModalOverlay className="confirm-overlay" isDismissable={!isBusy}>
        <Modal className="confirm">
          <Dialog className="confirm__dialog" role="alertdialog">
            {({ close }) => (
              <>
                <Heading slot="title" className="confirm__title">{title}</Heading>
                <div className="confirm__message">{message}</div>
                {error ? <p role="alert" className="field__error">{error}</p> : null}
                <div className="confirm__actions">
                  <Button variant="secondary" onPress={close} isDisabled={isBusy}>
                    {cancelLabel}
                  </Button>
                  <Button
                    variant="primary"
                    isDisabled={isBusy}
                    onPress={async () => {
                      setBusy(true);
                      try {
                        await onConfirm();
                        close();
                      } catch (failure) {
                        setError(failure instanceof Error ? failure.message : String(failure));
                      } finally {
                        setBusy(false);
                      }
                    }}
                  >
                    {confirmLabel}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

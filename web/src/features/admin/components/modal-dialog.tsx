import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

type ModalDialogProps = {
  title: string;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  children: ReactNode;
  /** alertdialog for confirmations: screen readers announce them as needing an answer. */
  role?: 'dialog' | 'alertdialog';
  /** While a request runs the dialog stays open: Escape and outside clicks are ignored. */
  isBusy?: boolean;
  size?: 'small' | 'large';
};

/** A centred modal with a titled dialog; focus moves in on open and returns to the trigger on close. */
export function ModalDialog({ title, isOpen, onOpenChange, children, role = 'dialog', isBusy = false, size = 'small' }: ModalDialogProps) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={isOpen}
      onOpenChange={(next) => {
        if (!isBusy || next) onOpenChange(next);
      }}
      isDismissable={!isBusy}
      isKeyboardDismissDisabled={isBusy}
    >
      <Modal className={`modal modal--${size}`}>
        <Dialog className="modal__dialog" role={role}>
          <Heading slot="title" className="modal__title">
            {title}
          </Heading>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

import { useEffect, useId, useRef, type AriaRole, type ReactNode } from 'react';
import { wholeReferences } from './whole-references.tsx';

type DialogProps = {
  isOpen: boolean;
  /** Called when the dialog closes by itself: Escape, or a tap on the backdrop. */
  onClose: () => void;
  /** False while something is in progress: Escape and the backdrop then do nothing. */
  isDismissable?: boolean;
  className?: string;
  role?: AriaRole;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  children: ReactNode;
};

/**
 * A modal <dialog>, opened with showModal(): the browser traps focus, makes the page behind it
 * inert, closes it on Escape and gives focus back to where it was. That is everything react-aria's
 * Modal did for the officer's screens, without its JavaScript. The content must fill
 * the element (no padding on it) so that a click whose target is the <dialog> itself is a click
 * on the backdrop.
 */
export function Dialog({ isOpen, onClose, isDismissable = true, className, children, ...aria }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);
  return (
    <dialog
      {...aria}
      ref={ref}
      className={className}
      onClose={() => {
        if (isOpen) onClose();
      }}
      onCancel={(event) => {
        if (!isDismissable) event.preventDefault();
      }}
      onClick={(event) => {
        if (isDismissable && event.target === event.currentTarget) onClose();
      }}
    >
      {isOpen ? children : null}
    </dialog>
  );
}

type ModalDialogProps = {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  /** alertdialog for confirmations: screen readers announce them as needing an answer. */
  role?: 'dialog' | 'alertdialog';
  /** While a request runs the dialog stays open: Escape and the backdrop do nothing. */
  isBusy?: boolean;
  size?: 'small' | 'large';
  'aria-describedby'?: string;
};

/**
 * THE dialog of the app, officer's and admin's alike: a titled modal on the native <dialog>
 * (focus moves in on open and back to the trigger on close; the page behind is inert).
 */
export function ModalDialog({
  title,
  isOpen,
  onClose,
  children,
  role = 'dialog',
  isBusy = false,
  size = 'small',
  ...aria
}: ModalDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      {...aria}
      isOpen={isOpen}
      onClose={onClose}
      isDismissable={!isBusy}
      className={`modal modal--${size}`}
      role={role}
      aria-labelledby={titleId}
    >
      <div className="modal__dialog">
        <h2 id={titleId} className="modal__title">
          {wholeReferences(title)}
        </h2>
        {children}
      </div>
    </Dialog>
  );
}

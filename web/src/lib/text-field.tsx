import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { FieldNotes, fieldNoteIds } from './field-notes.tsx';

type NativeProps = Omit<
  InputHTMLAttributes<HTMLInputElement & HTMLTextAreaElement>,
  'className' | 'onChange' | 'disabled' | 'required' | 'readOnly' | 'children'
>;

export type TextFieldProps = NativeProps & {
  label: string;
  description?: ReactNode;
  /** A message makes the field invalid and is announced with it. */
  errorMessage?: string | null;
  onChange?: (value: string) => void;
  isDisabled?: boolean;
  isRequired?: boolean;
  isReadOnly?: boolean;
  isMultiline?: boolean;
  rows?: number;
  inputRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
  className?: string;
};

/**
 * A labelled input (or textarea) in plain HTML, so every screen can use it without react-aria
 *: the label is tied to the input, the description and the message describe it, and
 * `aria-invalid` marks it. Our own messages (from the shared schemas) decide validity, not the
 * browser's constraint bubbles, so no `required` attribute is set; `aria-required` says it.
 */
export function TextField({
  label,
  description,
  errorMessage,
  onChange,
  isDisabled,
  isRequired,
  isReadOnly,
  isMultiline,
  rows = 4,
  inputRef,
  className,
  id: givenId,
  ...native
}: TextFieldProps) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const { descriptionId, errorId } = fieldNoteIds(id, description, errorMessage);
  const describedBy = [native['aria-describedby'], descriptionId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    ...native,
    id,
    disabled: isDisabled,
    readOnly: isReadOnly,
    'aria-required': isRequired || undefined,
    'aria-invalid': errorMessage ? true : undefined,
    'aria-describedby': describedBy,
    // One ref for either element: which one is decided by isMultiline below.
    ref: inputRef as Ref<HTMLInputElement & HTMLTextAreaElement>,
    onChange: onChange ? (event: { target: { value: string } }) => onChange(event.target.value) : undefined,
  };
  return (
    <div className={['field', className].filter(Boolean).join(' ')} data-invalid={errorMessage ? true : undefined}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {isMultiline ? (
        <textarea {...common} rows={rows} className="field__input field__input--multiline" />
      ) : (
        <input {...common} className="field__input" />
      )}
      <FieldNotes id={id} description={description} errorMessage={errorMessage} />
    </div>
  );
}

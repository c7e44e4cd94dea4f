import type { ReactNode, Ref } from 'react';
import { FieldError, Input, Label, Text, TextArea, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components';

export type TextFieldProps = Omit<AriaTextFieldProps, 'className' | 'children' | 'isInvalid'> & {
  label: string;
  description?: ReactNode;
  /** A message makes the field invalid and is announced with it. */
  errorMessage?: string | null;
  placeholder?: string;
  isMultiline?: boolean;
  rows?: number;
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
  /** Phones: 'characters' opens the keyboard in capitals (number plates). */
  autoCapitalize?: 'off' | 'none' | 'on' | 'sentences' | 'words' | 'characters';
  className?: string;
};

export function TextField({ label, description, errorMessage, placeholder, isMultiline, rows = 4, inputRef, autoCapitalize, className, ...props }: TextFieldProps) {
  return (
    // validationBehavior 'aria' so our own messages (from the shared schema) decide validity,
    // not the browser's built-in constraint bubbles.
    <AriaTextField {...props} validationBehavior="aria" isInvalid={Boolean(errorMessage)} className={['field', className].filter(Boolean).join(' ')}>
      <Label className="field__label">{label}</Label>
      {isMultiline ? (
        <TextArea className="field__input field__input--multiline" placeholder={placeholder} rows={rows} ref={inputRef} />
      ) : (
        <Input className="field__input" placeholder={placeholder} ref={inputRef} autoCapitalize={autoCapitalize} />
      )}
      {description ? <Text slot="description" className="field__description">{description}</Text> : null}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}

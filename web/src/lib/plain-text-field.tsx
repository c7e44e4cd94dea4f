import { useId, type InputHTMLAttributes, type Ref } from 'react';

export type PlainTextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'id'> & {
  label: string;
  /** A message makes the field invalid and is tied to it for screen readers. */
  errorMessage?: string | null;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * TextField's look and behaviour in plain HTML, for the screens that must paint before
 * react-aria arrives (the sign-in screen, issue 11): same classes, the label tied to the input,
 * aria-invalid and the message as its description.
 */
export function PlainTextField({ label, errorMessage, inputRef, ...input }: PlainTextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field" data-invalid={errorMessage ? true : undefined}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input {...input} id={id} ref={inputRef} className="field__input" aria-invalid={errorMessage ? true : undefined} aria-describedby={errorMessage ? errorId : undefined} />
      {errorMessage ? (
        <span id={errorId} className="field__error">
          {errorMessage}
        </span>
      ) : null}
    </div>
  );
}

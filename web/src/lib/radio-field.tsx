import { useId, type Ref } from 'react';
import type { SelectOption } from './select-field.tsx';

export type RadioFieldProps = {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string) => void;
  errorMessage?: string | null;
  isRequired?: boolean;
  /** The first option's input, to move focus to the group when it is invalid. */
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
};

/**
 * A short list of choices as native radio buttons, each a full-width row: one tap chooses, where
 * a select needs two. Arrow keys move between them, as the browser does for radios.
 */
export function RadioField({ label, options, value, onChange, errorMessage, isRequired, inputRef, className }: RadioFieldProps) {
  const name = useId();
  const errorId = `${name}-error`;
  return (
    <fieldset
      role="radiogroup"
      aria-labelledby={`${name}-label`}
      className={['field', 'radio-field', className].filter(Boolean).join(' ')}
      data-invalid={errorMessage ? true : undefined}
      aria-required={isRequired || undefined}
      aria-invalid={errorMessage ? true : undefined}
      aria-describedby={errorMessage ? errorId : undefined}
    >
      <legend id={`${name}-label`} className="field__label">
        {label}
      </legend>
      <div className="radio-field__options">
        {options.map((option, index) => (
          <label key={option.id} className="radio-field__option">
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={value === option.id}
              onChange={() => onChange(option.id)}
              ref={index === 0 ? inputRef : undefined}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {errorMessage ? (
        <span id={errorId} className="field__error">
          {errorMessage}
        </span>
      ) : null}
    </fieldset>
  );
}

import { useId, type Ref } from 'react';
import { FieldNotes, fieldNoteIds } from './field-notes.tsx';

export type SelectOption = { id: string; label: string };

export type SelectFieldProps = {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  /** Shown, and not choosable, while nothing is chosen. */
  placeholder?: string;
  description?: string;
  errorMessage?: string | null;
  isDisabled?: boolean;
  isRequired?: boolean;
  selectRef?: Ref<HTMLSelectElement>;
  className?: string;
  name?: string;
};

/**
 * A native <select>: a phone opens its own picker (big targets, the wheel officers know), screen
 * readers know it without help, and it costs no JavaScript library.
 */
export function SelectField({
  label,
  options,
  value,
  onChange,
  placeholder,
  description,
  errorMessage,
  isDisabled,
  isRequired,
  selectRef,
  className,
  name,
}: SelectFieldProps) {
  const id = useId();
  const { descriptionId, errorId } = fieldNoteIds(id, description, errorMessage);
  const hasPlaceholder = value === null || !options.some((option) => option.id === value);
  return (
    <div className={['field', className].filter(Boolean).join(' ')} data-invalid={errorMessage ? true : undefined}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        ref={selectRef}
        name={name}
        className="field__input select__native"
        value={hasPlaceholder ? '' : (value ?? '')}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
        disabled={isDisabled}
        aria-required={isRequired || undefined}
        aria-invalid={errorMessage ? true : undefined}
        aria-describedby={[descriptionId, errorId].filter(Boolean).join(' ') || undefined}
        data-placeholder={hasPlaceholder || undefined}
      >
        {hasPlaceholder ? (
          <option value="" disabled>
            {placeholder ?? ''}
          </option>
        ) : null}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} description={description} errorMessage={errorMessage} />
    </div>
  );
}

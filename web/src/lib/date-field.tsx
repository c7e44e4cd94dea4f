import { useState } from 'react';
import { DATE_INPUT_FORMAT, DATE_TIME_INPUT_FORMAT, parseDateInput, parseDateTimeInput, toDateInput } from './format-date.ts';
import { TextField, type TextFieldProps } from './text-field.tsx';

export const DATE_INPUT_MESSAGES = {
  date: `Enter the date as ${DATE_INPUT_FORMAT}, like 31/12/2026`,
  dateTime: `Enter the date and time as ${DATE_TIME_INPUT_FORMAT}, like 31/12/2026 14:05`,
  notBefore: (min: string) => `Enter a date on or after ${toDateInput(min)}`,
  notAfter: (max: string) => `Enter a date on or before ${toDateInput(max)}`,
} as const;

/** Why a whole date is outside min..max (ISO days, either optional), or null when it is within. */
export function dateRangeProblem(value: string, min?: string, max?: string): string | null {
  const day = value.slice(0, 10);
  if (min && day < min) return DATE_INPUT_MESSAGES.notBefore(min);
  if (max && day > max) return DATE_INPUT_MESSAGES.notAfter(max);
  return null;
}

export type DateFieldProps = Omit<TextFieldProps, 'type' | 'value' | 'onChange' | 'min' | 'max' | 'isMultiline' | 'rows'> & {
  /** The day as an ISO date ('2026-12-31'), with `withTime` a UK wall-clock reading ('2026-12-31T14:05'); '' for none. */
  value: string;
  /** The value once the text is a whole date (and time); '' while it is empty or not one (the field then says why). */
  onChange?: (value: string) => void;
  /** A date and a 24-hour time on the UK clock, typed dd/mm/yyyy hh:mm. */
  withTime?: boolean;
  /** The first and last days it takes (ISO dates): a day outside is named beside the field, as a text that is not a date is. */
  min?: string;
  max?: string;
};

/**
 * A date that always reads and is typed dd/mm/yyyy, whatever the browser's locale: a native date
 * input follows the device (mm/dd/yyyy on an en-US phone), which a UK product cannot have. The
 * code around it still holds an ISO date, so the schemas and the API are unchanged. A text that
 * is not a date is kept as typed and named beside the field once the user leaves it (or presses
 * Enter), and a form holding one sends nothing (useFormSubmit); a field
 * left empty while its owner keeps a value (a default it falls back to) shows that value again.
 */
export function DateField({ value, onChange, withTime = false, min, max, errorMessage, onBlur, onKeyDown, ...props }: DateFieldProps) {
  const parse = withTime ? parseDateTimeInput : parseDateInput;
  const [text, setText] = useState(() => toDateInput(value));
  const [previousValue, setPreviousValue] = useState(value);
  const [isEditing, setEditing] = useState(false);
  // The value changed from outside (a reset, a filter cleared, a default): show it. The owner's
  // answer to what was typed may come renders later (a filter goes through the address), so
  // only a change of the value itself counts, and one the text already says changes nothing.
  if (value !== previousValue) {
    setPreviousValue(value);
    if (value !== (parse(text) ?? '')) setText(toDateInput(value));
  }
  const typedValue = parse(text);
  const problem =
    text.trim() === ''
      ? null
      : typedValue === null
        ? DATE_INPUT_MESSAGES[withTime ? 'dateTime' : 'date']
        : dateRangeProblem(typedValue, min, max);
  return (
    <TextField
      {...props}
      type="text"
      inputMode={withTime ? 'text' : 'numeric'}
      autoComplete="off"
      placeholder={withTime ? DATE_TIME_INPUT_FORMAT : DATE_INPUT_FORMAT}
      value={text}
      // useFormSubmit sends nothing while a field holds this: the text would be read as no date.
      data-not-a-date={problem ? true : undefined}
      errorMessage={problem && !isEditing ? problem : errorMessage}
      onChange={(typed) => {
        setText(typed);
        setEditing(true);
        const typedValue = parse(typed) ?? '';
        if (typedValue !== value) onChange?.(typedValue);
      }}
      onKeyDown={(event) => {
        // Enter submits the form: the field then says what is wrong, as when it is left.
        if (event.key === 'Enter') setEditing(false);
        onKeyDown?.(event);
      }}
      onBlur={(event) => {
        setEditing(false);
        if (text.trim() === '' && value !== '') setText(toDateInput(value));
        onBlur?.(event);
      }}
    />
  );
}

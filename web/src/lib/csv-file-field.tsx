/**
 * A file field for a CSV an admin or landowner imports (keeper replies, agency outcomes, permits),
 * or another file of a kind `accept` names (the operator's logo): the native input, since a picker of our own would add nothing, labelled, with its error beside
 * it and announced with the field.
 */
export function CsvFileField({
  id,
  label,
  name = 'csv',
  accept = '.csv,text/csv',
  error,
  onFile,
}: {
  id: string;
  label: string;
  name?: string;
  accept?: string;
  error?: string | undefined;
  onFile: (file: File | null) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="field" data-invalid={error ? true : undefined}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onFile(event.currentTarget.files?.[0] ?? null)}
      />
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

import type { ReactNode } from 'react';

/** The ids a field's input is described by: its description, then its message (when shown). */
export function fieldNoteIds(id: string, description: ReactNode, errorMessage: string | null | undefined) {
  return { descriptionId: description ? `${id}-description` : undefined, errorId: errorMessage ? `${id}-error` : undefined };
}

/** A field's description and error message under its input, with the ids fieldNoteIds gave. */
export function FieldNotes({ id, description, errorMessage }: { id: string; description?: ReactNode; errorMessage?: string | null }) {
  const { descriptionId, errorId } = fieldNoteIds(id, description, errorMessage);
  return (
    <>
      {description ? (
        <span id={descriptionId} className="field__description">
          {description}
        </span>
      ) : null}
      {errorMessage ? (
        <span id={errorId} className="field__error">
          {errorMessage}
        </span>
      ) : null}
    </>
  );
}

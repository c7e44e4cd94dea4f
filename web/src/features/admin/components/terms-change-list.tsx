import { formatUkDateTime, type TermsChange } from '@parkpatrol/shared';

/**
 * Who changed which terms, newest first, each change in UK time with its old and new value: the
 * audit of what notices were printed with (the operator's terms, a car park's).
 */
export function TermsChangeList({
  changes,
  fieldLabel,
  shownValue,
}: {
  changes: readonly TermsChange[];
  fieldLabel: (field: string) => string;
  /** A stored value as the admin reads it (pounds, days, a place's name); null is a value too. */
  shownValue: (field: string, value: unknown) => string;
}) {
  if (changes.length === 0) return <p className="muted">No changes yet.</p>;
  return (
    <ol className="terms-history">
      {changes.map((change) => (
        <li key={change.id}>
          <p>
            <strong>{formatUkDateTime(change.createdAt)}</strong> by {change.actorName || 'unknown'}
          </p>
          <ul>
            {Object.entries(change.changes).map(([field, { from, to }]) => (
              <li key={field}>
                {fieldLabel(field)}: {from === null ? 'set to' : `${shownValue(field, from)} →`} {shownValue(field, to)}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

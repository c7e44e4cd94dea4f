/**
 * What an audit entry says changed: `{ field: { from, to } }`. Pure, so the
 * rules for what counts as a change are tested without a database.
 */
export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** Values are compared by their JSON form, so arrays and objects compare by content. */
function isSameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The fields of `after` whose value differs from `before`. A field left out of `after` was not
 * sent and is not a change; `undefined` and `null` both mean "no value".
 */
export function diffFields(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = before[field] ?? null;
    if (!isSameValue(from, to)) changes[field] = { from, to };
  }
  return changes;
}

/** Everything a new PCN starts with, each field from null; empty values are left out. */
export function creationChanges(snapshot: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, to] of Object.entries(snapshot)) {
    if (to === undefined || to === null || to === '' || (Array.isArray(to) && to.length === 0)) continue;
    changes[field] = { from: null, to };
  }
  return changes;
}

/** What a deleted PCN was, each field to null, so the trail still says what went. */
export function deletionChanges(snapshot: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, from] of Object.entries(snapshot)) {
    if (from === undefined || from === null || from === '') continue;
    changes[field] = { from, to: null };
  }
  return changes;
}

export function hasChanges(changes: AuditChanges): boolean {
  return Object.keys(changes).length > 0;
}

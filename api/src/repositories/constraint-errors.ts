/**
 * better-sqlite3 and pg report constraint failures with these codes (pg's are SQLSTATEs). Routes
 * check first and catch these only for the race where another request wrote in between, so it
 * is a 409, not a 500.
 */
function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

const UNIQUE_VIOLATIONS = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);
const FOREIGN_KEY_VIOLATIONS = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

export function isUniqueViolation(err: unknown): boolean {
  return UNIQUE_VIOLATIONS.has(errorCode(err) ?? '');
}

export function isForeignKeyViolation(err: unknown): boolean {
  return FOREIGN_KEY_VIOLATIONS.has(errorCode(err) ?? '');
}

/**
 * PostgreSQL refuses a NUL byte anywhere in text (SQLSTATE 22021), where SQLite stores it or
 * finds no row: in a path id, a search or a JSON string it is the request's fault, so a 400.
 */
export function isUnstorableText(err: unknown): boolean {
  return errorCode(err) === '22021';
}

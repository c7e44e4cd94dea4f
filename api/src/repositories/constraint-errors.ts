/**
 * better-sqlite3 reports constraint failures with these codes. Routes check first and catch
 * these only for the race where another request wrote in between, so it is a 409, not a 500.
 */
function sqliteCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = sqliteCode(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(err: unknown): boolean {
  return sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

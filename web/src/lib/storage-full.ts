/** Dexie wraps the browser's error; either name means the device is out of space for us. */
export function isQuotaExceededError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, inner } = error as { name?: string; inner?: unknown };
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
  return inner !== undefined && inner !== error && isQuotaExceededError(inner);
}

export const STORAGE_FULL_MESSAGE =
  'This phone is out of storage space for the app. Your saved notices are kept; free some space, then try again.';

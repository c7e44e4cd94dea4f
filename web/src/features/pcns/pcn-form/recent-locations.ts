/**
 * The officer's last few locations at each car park, offered as one-tap choices: a patrol walks
 * the same levels and rows all shift. Kept per officer and car park on this phone.
 */
const KEY_PREFIX = 'parkpatrol:recent-locations:';
export const RECENT_LOCATIONS_KEPT = 4;

function keyOf(userId: string, carParkId: string): string {
  return `${KEY_PREFIX}${userId}:${carParkId}`;
}

/** Newest first, without repeats (compared ignoring case and spaces at the ends). */
export function addRecentLocation(recent: readonly string[], location: string, kept = RECENT_LOCATIONS_KEPT): string[] {
  const value = location.trim();
  if (!value) return [...recent];
  return [value, ...recent.filter((item) => item.trim().toLowerCase() !== value.toLowerCase())].slice(0, kept);
}

export function readRecentLocations(userId: string, carParkId: string, storage: Pick<Storage, 'getItem'> = localStorage): string[] {
  if (!carParkId) return [];
  try {
    const parsed: unknown = JSON.parse(storage.getItem(keyOf(userId, carParkId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').slice(0, RECENT_LOCATIONS_KEPT) : [];
  } catch {
    return [];
  }
}

export function rememberLocation(
  userId: string,
  carParkId: string,
  location: string,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): void {
  if (!carParkId) return;
  try {
    storage.setItem(keyOf(userId, carParkId), JSON.stringify(addRecentLocation(readRecentLocations(userId, carParkId, storage), location)));
  } catch {
    // Private mode or a full disk: the officer types the location, nothing is lost.
  }
}

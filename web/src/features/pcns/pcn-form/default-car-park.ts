/**
 * Officers patrol one site at a time, so a new notice starts at the car park of their last one
 * (or their only one): no tap for it. Remembered per officer on this phone.
 */
const KEY_PREFIX = 'parkpatrol:last-car-park:';

/** The car park a new notice starts with: the last one used if still assigned, else the only one, else none. */
export function defaultCarParkId(assignedIds: readonly string[], lastUsedId: string | null): string {
  if (lastUsedId && assignedIds.includes(lastUsedId)) return lastUsedId;
  return assignedIds.length === 1 ? assignedIds[0]! : '';
}

export function readLastCarPark(userId: string, storage: Pick<Storage, 'getItem'> = localStorage): string | null {
  try {
    return storage.getItem(KEY_PREFIX + userId);
  } catch {
    return null;
  }
}

export function rememberLastCarPark(userId: string, carParkId: string, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(KEY_PREFIX + userId, carParkId);
  } catch {
    // Private mode or a full disk: the officer chooses the car park next time, nothing is lost.
  }
}

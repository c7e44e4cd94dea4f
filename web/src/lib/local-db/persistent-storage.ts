/** Whether the browser has agreed to keep our storage; false where it cannot say (it then keeps nothing for sure). */
export async function readStoragePersisted(): Promise<boolean> {
  try {
    return (await globalThis.navigator?.storage?.persisted?.()) ?? false;
  } catch {
    return false;
  }
}

/**
 * Asks the browser not to evict our database under storage pressure; without it Safari may
 * clear IndexedDB after seven days without a visit, taking unsent notices with it.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = globalThis.navigator?.storage;
  if (!storage?.persist) return false;
  try {
    if (await storage.persisted()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}

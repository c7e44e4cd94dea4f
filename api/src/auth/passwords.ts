import argon2 from 'argon2';

/** argon2id with the library's current defaults: a memory-hard hash, tuned by its maintainers. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** True when the stored hash was made with other parameters than today's defaults. */
export function passwordNeedsRehash(hash: string): boolean {
  return argon2.needsRehash(hash);
}

/**
 * A real hash of a random password, computed once, so a login for an unknown email takes as
 * long as one for a known email with a wrong password (no account enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}

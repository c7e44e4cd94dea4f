import type { KeyValueStorage } from '../../lib/api-client.ts';

/**
 * The device tokens this browser was given at sign-in, one per account (by email). The server
 * hears a sign-in for an account that strangers have been guessing at only from a device that
 * signed in to it before (docs/security.md, "The third outside attack"), so the tokens outlive
 * sign-out: they are no session, and sign nobody in without the password.
 */
export type KnownDevices = {
  tokenFor(email: string): string | undefined;
  remember(email: string, token: string): void;
};

export const KNOWN_DEVICES_KEY = 'knownDevices';
/** Accounts remembered on one device (a shared phone); the longest unused is forgotten first. */
const ACCOUNTS_KEPT = 10;

type Stored = Array<[email: string, token: string]>;

export function createKnownDevices(storage: KeyValueStorage): KnownDevices {
  const read = (): Stored => {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(KNOWN_DEVICES_KEY) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((entry): entry is [string, string] => Array.isArray(entry) && entry.length === 2) : [];
    } catch {
      return [];
    }
  };
  const keyOf = (email: string) => email.trim().toLowerCase();

  return {
    tokenFor: (email) => read().find(([known]) => known === keyOf(email))?.[1],
    remember(email, token) {
      const others = read().filter(([known]) => known !== keyOf(email));
      try {
        storage.setItem(KNOWN_DEVICES_KEY, JSON.stringify([[keyOf(email), token], ...others].slice(0, ACCOUNTS_KEPT)));
      } catch (error) {
        // A full disk must not stop the sign-in; the device is simply not remembered this time.
        console.warn('Could not remember this device for sign-in', error);
      }
    },
  };
}

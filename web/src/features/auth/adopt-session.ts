import type { LoginResponse, User } from '@parkpatrol/shared';
import { browserStorage } from '../../lib/api-client.ts';
import { createStorageProfileCache, sessionStore } from './session-store.ts';

/**
 * Session changes made outside the sign-in form, through the store's public setter only:
 * the onboarding link signs someone in with the answer of POST /auth/access-link, and the
 * profile screen shows a changed name at once (account button initials).
 */
const profileCache = createStorageProfileCache(browserStorage());

/** Signs in with tokens the server has just issued (access link), as a password sign-in would. */
export function adoptSession(answer: LoginResponse): Promise<void> {
  return sessionStore.getState().adoptSession(answer);
}

/** The signed-in user's profile as the server now has it. */
export function replaceSessionUser(user: User): void {
  profileCache.write(user);
  sessionStore.setState({ user, isProfileStale: false });
}

/** A message for the sign-in screen, which shows the session's error above its form. */
export function showSignInMessage(message: string): void {
  sessionStore.setState({ error: message });
}

import { createContext, useContext } from 'react';
import type { User } from '@parkpatrol/shared';

/**
 * The signed-in user as screens see it. The app provides it from the session store, so features
 * (dashboard, pcns, admin) read the user without importing the auth feature.
 */
export const CurrentUserContext = createContext<User | null>(null);

export function useCurrentUser(): User | null {
  return useContext(CurrentUserContext);
}

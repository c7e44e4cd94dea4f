import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { useSession } from '../features/auth/session-store.ts';
import { PwaUpdatePrompt } from './pwa-update-prompt.tsx';
import { loadAppShell, loadOfficerScreens, loadPcnDetail, loadPcnForm, prefetchWhenIdle } from './screen-chunks.ts';

/**
 * Restores the session once, and offers a new version of the app when one is waiting (never
 * reloading by itself). React-aria's routing is given by the screens that use it (aria-router.tsx).
 */
export function RootLayout() {
  const restoreSession = useSession((s) => s.restoreSession);
  useEffect(() => {
    void restoreSession();
  }, [restoreSession]);
  // Once signed in, the officer screens not yet opened are fetched while the network is idle.
  // Not from the sign-in screen: it downloads only what sign-in needs, and the
  // service worker's install brings the rest to the phone for offline use anyway.
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  useEffect(
    () => (isAuthenticated ? prefetchWhenIdle(loadAppShell, loadOfficerScreens, loadPcnForm, loadPcnDetail) : undefined),
    [isAuthenticated],
  );
  return (
    <>
      <Outlet />
      <PwaUpdatePrompt />
    </>
  );
}

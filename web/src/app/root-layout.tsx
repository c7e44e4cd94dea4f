import { useEffect } from 'react';
import { Outlet, useHref, useNavigate, type NavigateOptions } from 'react-router-dom';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { useSession } from '../features/auth/session-store.ts';
import { PwaUpdatePrompt } from './pwa-update-prompt.tsx';
import { loadAppShell, loadOfficerScreens, loadPcnDetail, loadPcnForm, prefetchWhenIdle } from './signed-in-chunks.ts';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/**
 * Lets every react-aria link and menu item navigate through react-router, restores the session
 * once, and offers a new version of the app when one is waiting (never reloading by itself).
 */
export function RootLayout() {
  const navigate = useNavigate();
  const restoreSession = useSession((s) => s.restoreSession);
  useEffect(() => {
    void restoreSession();
  }, [restoreSession]);
  // Once signed in, the officer screens not yet opened are fetched while the network is idle
  // (issue 11). Not from the sign-in screen: it downloads only what sign-in needs, and the
  // service worker's install brings the rest to the phone for offline use anyway.
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  useEffect(() => (isAuthenticated ? prefetchWhenIdle(loadAppShell, loadOfficerScreens, loadPcnForm, loadPcnDetail) : undefined), [isAuthenticated]);
  return (
    <AriaRouterProvider navigate={(href, options) => navigate(href, options)} useHref={useHref}>
      <Outlet />
      <PwaUpdatePrompt />
    </AriaRouterProvider>
  );
}

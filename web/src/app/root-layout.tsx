import { useEffect } from 'react';
import { Outlet, useHref, useLocation, useNavigate, type NavigateOptions } from 'react-router-dom';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { useSession } from '../features/auth/session-store.ts';
import { paths } from '../config/paths.ts';
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
  // The next likely screens, fetched while the network is idle: from the sign-in screen the
  // dashboard, once signed in every officer screen (issue 11).
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const isSignInScreen = useLocation().pathname === paths.login;
  useEffect(() => {
    if (isAuthenticated) return prefetchWhenIdle(loadAppShell, loadOfficerScreens, loadPcnForm, loadPcnDetail);
    if (isSignInScreen) return prefetchWhenIdle(loadAppShell, loadOfficerScreens);
    return undefined;
  }, [isAuthenticated, isSignInScreen]);
  return (
    <AriaRouterProvider navigate={(href, options) => navigate(href, options)} useHref={useHref}>
      <Outlet />
      <PwaUpdatePrompt />
    </AriaRouterProvider>
  );
}

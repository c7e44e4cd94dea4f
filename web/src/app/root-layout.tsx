import { useEffect } from 'react';
import { Outlet, useHref, useNavigate, type NavigateOptions } from 'react-router-dom';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { useSession } from '../features/auth/session-store.ts';
import { PwaUpdatePrompt } from './pwa-update-prompt.tsx';

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
  return (
    <AriaRouterProvider navigate={(href, options) => navigate(href, options)} useHref={useHref}>
      <Outlet />
      <PwaUpdatePrompt />
    </AriaRouterProvider>
  );
}

import type { ReactNode } from 'react';
import { useHref, useNavigate, type NavigateOptions } from 'react-router-dom';
import { RouterProvider } from 'react-aria-components';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/**
 * Lets react-aria's links and menu items navigate through react-router. Given by the screens that
 * use react-aria (admin, account and public screens, all loaded lazily), not by the root: the
 * sign-in screen and the officer's screens download no react-aria.
 */
export function AriaRouter({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <RouterProvider navigate={(href, options) => navigate(href, options)} useHref={useHref}>
      {children}
    </RouterProvider>
  );
}

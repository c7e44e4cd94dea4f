import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { isAdminRole, isLandownerRole } from '@parkpatrol/shared';
import { paths } from '../config/paths.ts';
import { useSession } from '../features/auth/session-store.ts';
import { FullPageSpinner } from '../lib/spinner.tsx';
import { AccessDenied } from './routes/access-denied.tsx';

// Only an account opened by an access link ever sees it: not in the sign-in download.
const SetPasswordForm = lazy(async () => {
  const [{ SetPasswordForm: Form }, { AriaRouter }] = await Promise.all([
    import('../features/access-link/set-password-form.tsx'),
    import('./aria-router.tsx'),
  ]);
  return {
    default: (props: ComponentProps<typeof Form>) => (
      <AriaRouter>
        <Form {...props} />
      </AriaRouter>
    ),
  };
});

/** Where the sign-in screen returns to: kept in router state as `from`. */
export type LoginLocationState = { from?: { pathname: string; search?: string; hash?: string } };

/**
 * Signed-in routes. An account opened by an access link that has no password yet stays on the
 * password step whatever address it opens (the server refuses it everything else too, so the
 * app could show nothing useful anyway); once it is set, the route asked for shows.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const hasRestored = useSession((s) => s.hasRestored);
  const user = useSession((s) => s.user);
  const location = useLocation();
  if (!hasRestored) return <FullPageSpinner />;
  if (!isAuthenticated) {
    const state: LoginLocationState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to={paths.login} replace state={state} />;
  }
  if (user && !user.hasPassword) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <SetPasswordForm user={user} />
      </Suspense>
    );
  }
  return children;
}

/** A convenience only: the server checks roles on every admin call (docs/product.md, Who may see what). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const role = useSession((s) => s.user?.role);
  if (!isAdminRole(role)) return <AccessDenied />;
  return children;
}

/** A landowner's screens (decision 0042): the server answers only a landowner's or an admin's calls there. */
export function RequireLandowner({ children }: { children: ReactNode }) {
  const role = useSession((s) => s.user?.role);
  if (!isLandownerRole(role)) return <AccessDenied />;
  return children;
}

/**
 * Where a signed-in landowner may go: their own screens and their profile. Any officer's or
 * admin's address (the app's home included) takes them to their car parks instead.
 */
export function isLandownerPath(pathname: string): boolean {
  return pathname === paths.profile || pathname === paths.landowner.home || pathname.startsWith(`${paths.landowner.home}/`);
}

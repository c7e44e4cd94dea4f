import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { RequireAdmin, RequireAuth } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { FullPageSpinner } from '../lib/spinner.tsx';
import { RouteError } from './routes/route-error.tsx';
import { loadAppShell, loadOfficerScreens, loadPcnDetail, loadPcnForm } from './signed-in-chunks.ts';

/**
 * A route whose screen is fetched only when first visited. Admin screens use it so the officer
 * path stays small (design section 9); react-router loads the module before committing the
 * navigation, so no Suspense fallback is needed.
 */
export function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      // With react-aria's routing: these screens use its links (the root does not give it, issue 11).
      const [module, { AriaRouter }] = await Promise.all([load(), import('./aria-router.tsx')]);
      const Screen = pick(module);
      return {
        Component: () => (
          <AriaRouter>
            <Screen />
          </AriaRouter>
        ),
      };
    },
  };
}

/**
 * A signed-in screen, fetched when it is first rendered. Unlike a route's `lazy`, which
 * react-router runs while matching, this runs only inside RequireAuth: a signed-out visitor to
 * `/` is sent to the sign-in screen without downloading the signed-in code (issue 11).
 */
function lazyElement<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Screen = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Screen />
    </Suspense>
  );
}

/** Admin area children (relative to /admin), each screen in its own lazy chunk. */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <Navigate to={paths.admin.dashboard} replace /> },
  { path: 'dashboard', ...lazyScreen(() => import('../features/admin/admin-dashboard/admin-dashboard-screen.tsx'), (m) => m.AdminDashboardScreen) },
  { path: 'pcns', ...lazyScreen(() => import('../features/admin/manage-pcns/manage-pcns-screen.tsx'), (m) => m.ManagePcnsScreen) },
  { path: 'users', ...lazyScreen(() => import('../features/admin/manage-users/manage-users-screen.tsx'), (m) => m.ManageUsersScreen) },
  { path: 'car-parks', ...lazyScreen(() => import('../features/admin/manage-car-parks/manage-car-parks-screen.tsx'), (m) => m.ManageCarParksScreen) },
  { path: 'onboarding', ...lazyScreen(() => import('../features/admin/client-onboarding/client-onboarding-screen.tsx'), (m) => m.ClientOnboardingScreen) },
  { path: 'analytics', ...lazyScreen(() => import('../features/admin/analytics/analytics-screen.tsx'), (m) => m.AnalyticsScreen) },
];

/** Spec section 2's route table. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullPageSpinner />,
    errorElement: <RouteError />,
    children: [
      { path: paths.login, element: <LoginScreen /> },
      { path: paths.forgotPassword, ...lazyScreen(() => import('../features/password-reset/forgot-password-screen.tsx'), (m) => m.ForgotPasswordScreen) },
      { path: paths.resetPassword, ...lazyScreen(() => import('../features/password-reset/reset-password-screen.tsx'), (m) => m.ResetPasswordScreen) },
      { path: paths.accessLinkPattern, ...lazyScreen(() => import('../features/access-link/access-link-screen.tsx'), (m) => m.AccessLinkScreen) },
      {
        path: paths.home,
        element: <RequireAuth>{lazyElement(loadAppShell, (m) => m.AppShell)}</RequireAuth>,
        children: [
          { index: true, element: <Navigate to={paths.dashboard} replace /> },
          { path: paths.dashboard, element: lazyElement(loadOfficerScreens, (m) => m.DashboardRoute) },
          { path: paths.newPcn, element: lazyElement(loadPcnForm, (m) => m.PcnFormScreen) },
          { path: paths.editPcnPattern, element: lazyElement(loadPcnForm, (m) => m.PcnFormScreen) },
          { path: paths.pcns, element: lazyElement(loadOfficerScreens, (m) => m.MyPcnsRoute) },
          { path: paths.pcnPattern, element: lazyElement(loadPcnDetail, (m) => m.PcnDetailScreen) },
          { path: paths.profile, ...lazyScreen(() => import('../features/profile/profile-screen.tsx'), (m) => m.ProfileScreen) },
          {
            path: paths.admin.root,
            element: (
              <RequireAdmin>
                <Outlet />
              </RequireAdmin>
            ),
            children: adminRoutes,
          },
        ],
      },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { DashboardScreen } from '../features/dashboard/dashboard-screen.tsx';
import { PcnDetailScreen } from '../features/pcns/pcn-detail.tsx';
import { PcnFormScreen } from '../features/pcns/pcn-form/pcn-form-screen.tsx';
import { PcnListScreen } from '../features/pcns/pcn-list.tsx';
import { RequireAdmin, RequireAuth } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { FullPageSpinner } from '../lib/spinner.tsx';
import { AppShell } from './shell/app-shell.tsx';
import {
  AccessLinkPlaceholder,
  ForgotPasswordPlaceholder,
  ProfilePlaceholder,
  ResetPasswordPlaceholder,
} from './routes/placeholder-screens.tsx';

/**
 * A route whose screen is fetched only when first visited. Admin screens use it so the officer
 * path stays small (design section 9); react-router loads the module before committing the
 * navigation, so no Suspense fallback is needed.
 */
export function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

const loadAdmin = () => import('./routes/admin-placeholders.tsx');

/** Admin area children (relative to /admin). Issue #6 swaps the loaders for its real screens. */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <Navigate to={paths.admin.dashboard} replace /> },
  { path: 'dashboard', ...lazyScreen(loadAdmin, (m) => m.AdminDashboardPlaceholder) },
  { path: 'pcns', ...lazyScreen(loadAdmin, (m) => m.ManagePcnsPlaceholder) },
  { path: 'users', ...lazyScreen(loadAdmin, (m) => m.ManageUsersPlaceholder) },
  { path: 'car-parks', ...lazyScreen(loadAdmin, (m) => m.ManageCarParksPlaceholder) },
  { path: 'onboarding', ...lazyScreen(loadAdmin, (m) => m.ClientOnboardingPlaceholder) },
  { path: 'analytics', ...lazyScreen(loadAdmin, (m) => m.AnalyticsPlaceholder) },
];

/** Spec section 2's route table. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: paths.login, element: <LoginScreen /> },
      { path: paths.forgotPassword, element: <ForgotPasswordPlaceholder /> },
      { path: paths.resetPassword, element: <ResetPasswordPlaceholder /> },
      { path: paths.accessLinkPattern, element: <AccessLinkPlaceholder /> },
      {
        path: paths.home,
        element: (
          <RequireAuth>
            <AppShell />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to={paths.dashboard} replace /> },
          { path: paths.dashboard, element: <DashboardScreen /> },
          { path: paths.newPcn, element: <PcnFormScreen /> },
          { path: paths.editPcnPattern, element: <PcnFormScreen /> },
          { path: paths.pcns, element: <PcnListScreen /> },
          { path: paths.pcnPattern, element: <PcnDetailScreen /> },
          { path: paths.profile, element: <ProfilePlaceholder /> },
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

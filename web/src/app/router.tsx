import { lazy, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
// In the first chunk like sign-in (2 KB): a motorist's first visit from a QR code paints without
// waiting for a second round trip; the charge view and its API still load on demand.
import { ChargeScreen } from '../features/charge/charge-screen.tsx';
import { RequireAdmin, RequireAuth, RequireLandowner } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { loadAppShell, loadOfficerScreens, loadPcnDetail, loadPcnForm } from './signed-in-chunks.ts';

/**
 * A screen fetched when it is first rendered. Rendered only where its route matches (inside
 * RequireAuth for the signed-in ones), so a signed-out visitor to `/` is sent to the sign-in
 * screen without downloading the signed-in code. No Suspense boundary of its own: the
 * app's and the shell's stay mounted, so a navigation (a transition) keeps the current screen
 * until the next one is ready instead of flashing a spinner, whose reveal React 19 holds back
 * for 300 ms.
 */
function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(async () => ({ default: pick(await load()) }));
}

/** Screens built on react-aria (admin, account, public forms) get its routing with them. */
function ariaScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazyScreen(
    () => Promise.all([load(), import('./aria-router.tsx')]),
    ([module, { AriaRouter }]) =>
      function WithAriaRouter() {
        const Screen = pick(module);
        return (
          <AriaRouter>
            <Screen />
          </AriaRouter>
        );
      },
  );
}

const AppShell = lazyScreen(loadAppShell, (m) => m.AppShell);
const Dashboard = lazyScreen(loadOfficerScreens, (m) => m.DashboardRoute);
const MyPcns = lazyScreen(loadOfficerScreens, (m) => m.MyPcnsRoute);
const OutboxNotice = lazyScreen(loadOfficerScreens, (m) => m.OutboxNoticeRoute);
const PcnForm = lazyScreen(loadPcnForm, (m) => m.PcnFormScreen);
const PcnDetail = lazyScreen(loadPcnDetail, (m) => m.PcnDetailScreen);
const Profile = ariaScreen(
  () => import('../features/profile/profile-screen.tsx'),
  (m) => m.ProfileScreen,
);
const ForgotPassword = ariaScreen(
  () => import('../features/password-reset/forgot-password-screen.tsx'),
  (m) => m.ForgotPasswordScreen,
);
const ResetPassword = ariaScreen(
  () => import('../features/password-reset/reset-password-screen.tsx'),
  (m) => m.ResetPasswordScreen,
);
const Visit = lazyScreen(
  () => import('../features/visit/visit-screen.tsx'),
  (m) => m.VisitScreen,
);
const ConfirmAppeal = lazyScreen(
  () => import('../features/charge/confirm-appeal-screen.tsx'),
  (m) => m.ConfirmAppealScreen,
);
const AccessLink = ariaScreen(
  () => import('../features/access-link/access-link-screen.tsx'),
  (m) => m.AccessLinkScreen,
);
const AdminDashboard = ariaScreen(
  () => import('../features/admin/admin-dashboard/admin-dashboard-screen.tsx'),
  (m) => m.AdminDashboardScreen,
);
const ManagePcns = ariaScreen(
  () => import('../features/admin/manage-pcns/manage-pcns-screen.tsx'),
  (m) => m.ManagePcnsScreen,
);
const ManageUsers = ariaScreen(
  () => import('../features/admin/manage-users/manage-users-screen.tsx'),
  (m) => m.ManageUsersScreen,
);
const ManageCarParks = ariaScreen(
  () => import('../features/admin/manage-car-parks/manage-car-parks-screen.tsx'),
  (m) => m.ManageCarParksScreen,
);
const CarParkPermits = ariaScreen(
  () => import('../features/permits/car-park-permits-screen.tsx'),
  (m) => m.CarParkPermitsScreen,
);
const LandownerHome = ariaScreen(
  () => import('../features/landowner/landowner-screens.tsx'),
  (m) => m.LandownerHomeScreen,
);
const LandownerCarPark = ariaScreen(
  () => import('./routes/landowner-screens.tsx'),
  (m) => m.LandownerCarParkRoute,
);
const CarParkReport = ariaScreen(
  () => import('../features/landowner/landowner-screens.tsx'),
  (m) => m.CarParkReportScreen,
);
const ClientOnboarding = ariaScreen(
  () => import('../features/admin/client-onboarding/client-onboarding-screen.tsx'),
  (m) => m.ClientOnboardingScreen,
);
const KeeperNotices = ariaScreen(
  () => import('../features/admin/keeper-notices/keeper-notices-screen.tsx'),
  (m) => m.KeeperNoticesScreen,
);
const CollectionLetters = ariaScreen(
  () => import('../features/admin/collection-letters/collection-letters-screen.tsx'),
  (m) => m.CollectionLettersScreen,
);
const DebtRecovery = ariaScreen(
  () => import('../features/admin/debt-recovery/debt-recovery-screen.tsx'),
  (m) => m.DebtRecoveryScreen,
);
const Appeals = ariaScreen(
  () => import('../features/admin/appeals/appeals-screen.tsx'),
  (m) => m.AppealsScreen,
);
const NewAppeal = ariaScreen(
  () => import('../features/admin/appeals/new-appeal-screen.tsx'),
  (m) => m.NewAppealScreen,
);
const AppealView = ariaScreen(
  () => import('../features/admin/appeals/appeal-screen.tsx'),
  (m) => m.AppealScreen,
);
const OperatorSettings = ariaScreen(
  () => import('../features/admin/operator-settings/operator-settings-screen.tsx'),
  (m) => m.OperatorSettingsScreen,
);
const Analytics = ariaScreen(
  () => import('../features/admin/analytics/analytics-screen.tsx'),
  (m) => m.AnalyticsScreen,
);

/**
 * The route table (docs/product.md, one heading per screen). Declarative routes, not createBrowserRouter: the data router's
 * loaders and actions are unused here and cost about 16 KB on the wire.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path={paths.login} element={<LoginScreen />} />
        <Route path={paths.forgotPassword} element={<ForgotPassword />} />
        <Route path={paths.resetPassword} element={<ResetPassword />} />
        <Route path={paths.accessLinkPattern} element={<AccessLink />} />
        <Route path={paths.charge} element={<ChargeScreen />} />
        <Route path={paths.chargeConfirmAppeal} element={<ConfirmAppeal />} />
        <Route path={paths.visitPattern} element={<Visit />} />
        <Route
          path={paths.home}
          element={
            <RequireAuth>
              <AppShell />
            </RequireAuth>
          }
        >
          <Route index element={<Navigate to={paths.dashboard} replace />} />
          <Route path={paths.dashboard} element={<Dashboard />} />
          <Route path={paths.newPcn} element={<PcnForm />} />
          <Route path={paths.editPcnPattern} element={<PcnForm />} />
          <Route path={paths.pcns} element={<MyPcns />} />
          <Route path={paths.pcnPattern} element={<PcnDetail />} />
          <Route path={paths.outboxNoticePattern} element={<OutboxNotice />} />
          <Route path={paths.profile} element={<Profile />} />
          <Route
            path={paths.landowner.home}
            element={
              <RequireLandowner>
                <Outlet />
              </RequireLandowner>
            }
          >
            <Route index element={<LandownerHome />} />
            <Route path="car-parks/:id" element={<LandownerCarPark />} />
          </Route>
          <Route
            path={paths.admin.root}
            element={
              <RequireAdmin>
                <Outlet />
              </RequireAdmin>
            }
          >
            <Route index element={<Navigate to={paths.admin.dashboard} replace />} />
            <Route path="dashboard" element={<AdminDashboard />} />
            <Route path="pcns" element={<ManagePcns />} />
            <Route path="users" element={<ManageUsers />} />
            <Route path="car-parks" element={<ManageCarParks />} />
            <Route path="car-parks/:id/permits" element={<CarParkPermits />} />
            <Route path="car-parks/:id/report" element={<CarParkReport />} />
            <Route path="onboarding" element={<ClientOnboarding />} />
            <Route path="analytics" element={<Analytics />} />
            <Route path="settings" element={<OperatorSettings />} />
            <Route path="keeper-notices" element={<KeeperNotices />} />
            <Route path="collection-letters" element={<CollectionLetters />} />
            <Route path="debt-recovery" element={<DebtRecovery />} />
            <Route path="appeals" element={<Appeals />} />
            <Route path="appeals/new" element={<NewAppeal />} />
            <Route path="appeals/:id" element={<AppealView />} />
          </Route>
        </Route>
        <Route path="*" element={<Navigate to={paths.home} replace />} />
      </Route>
    </Routes>
  );
}

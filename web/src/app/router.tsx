import { lazy, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
// In the first chunk like sign-in (2 KB): a motorist's first visit from a QR code paints without
// waiting for a second round trip; the charge view and its API still load on demand.
import { ChargeScreen } from '../features/charge/charge-screen.tsx';
import { BUILD_NAME } from '../lib/build-name.ts';
import { RequireAdmin, RequireAuth, RequireLandowner } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { StaleVersionError } from './routes/route-error.tsx';
import * as screens from './screen-chunks.ts';

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

const AppShell = lazyScreen(screens.loadAppShell, (m) => m.AppShell);
const Dashboard = lazyScreen(screens.loadOfficerScreens, (m) => m.DashboardRoute);
const MyPcns = lazyScreen(screens.loadOfficerScreens, (m) => m.MyPcnsRoute);
const OutboxNotice = lazyScreen(screens.loadOfficerScreens, (m) => m.OutboxNoticeRoute);
const PcnForm = lazyScreen(screens.loadPcnForm, (m) => m.PcnFormScreen);
const PcnDetail = lazyScreen(screens.loadPcnDetail, (m) => m.PcnDetailScreen);
const Profile = ariaScreen(screens.loadProfile, (m) => m.ProfileScreen);
const ForgotPassword = ariaScreen(screens.loadForgotPassword, (m) => m.ForgotPasswordScreen);
const ResetPassword = ariaScreen(screens.loadResetPassword, (m) => m.ResetPasswordScreen);
const Visit = lazyScreen(screens.loadVisit, (m) => m.VisitScreen);
const ConfirmAppeal = lazyScreen(screens.loadConfirmAppeal, (m) => m.ConfirmAppealScreen);
const AccessLink = ariaScreen(screens.loadAccessLink, (m) => m.AccessLinkScreen);
const CarParkPermits = ariaScreen(screens.loadCarParkPermits, (m) => m.CarParkPermitsScreen);
const LandownerHome = ariaScreen(screens.loadLandownerScreens, (m) => m.LandownerHomeScreen);
const LandownerCarPark = ariaScreen(screens.loadLandownerRoutes, (m) => m.LandownerCarParkRoute);
const CarParkReport = ariaScreen(screens.loadLandownerScreens, (m) => m.CarParkReportScreen);

/**
 * An admin screen: its list of chunks first (app/screen-chunks.ts says why), then the screen.
 * The list has a fixed name, so a page open across a deploy may fetch the new one, whose screens
 * need the new start file: asked to reload instead, as when a hashed chunk has gone.
 */
type AdminScreens = Awaited<ReturnType<typeof screens.loadAdminScreens>>;
function adminScreen<M>(load: (admin: AdminScreens) => Promise<M>, pick: (module: M) => ComponentType) {
  return ariaScreen(async () => {
    const admin = await screens.loadAdminScreens();
    if (admin.BUILT_WITH !== BUILD_NAME) throw new StaleVersionError('The admin screens are of a newer version');
    return load(admin);
  }, pick);
}

const AdminDashboard = adminScreen(
  (a) => a.loadAdminDashboard(),
  (m) => m.AdminDashboardScreen,
);
const ManagePcns = adminScreen(
  (a) => a.loadManagePcns(),
  (m) => m.ManagePcnsScreen,
);
const ManageUsers = adminScreen(
  (a) => a.loadManageUsers(),
  (m) => m.ManageUsersScreen,
);
const ManageCarParks = adminScreen(
  (a) => a.loadManageCarParks(),
  (m) => m.ManageCarParksScreen,
);
const ClientOnboarding = adminScreen(
  (a) => a.loadClientOnboarding(),
  (m) => m.ClientOnboardingScreen,
);
const KeeperNotices = adminScreen(
  (a) => a.loadKeeperNotices(),
  (m) => m.KeeperNoticesScreen,
);
const CollectionLetters = adminScreen(
  (a) => a.loadCollectionLetters(),
  (m) => m.CollectionLettersScreen,
);
const DebtRecovery = adminScreen(
  (a) => a.loadDebtRecovery(),
  (m) => m.DebtRecoveryScreen,
);
const Appeals = adminScreen(
  (a) => a.loadAppeals(),
  (m) => m.AppealsScreen,
);
const NewAppeal = adminScreen(
  (a) => a.loadNewAppeal(),
  (m) => m.NewAppealScreen,
);
const AppealView = adminScreen(
  (a) => a.loadAppeal(),
  (m) => m.AppealScreen,
);
const OperatorSettings = adminScreen(
  (a) => a.loadOperatorSettings(),
  (m) => m.OperatorSettingsScreen,
);
const Analytics = adminScreen(
  (a) => a.loadAnalytics(),
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

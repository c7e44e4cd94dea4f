/**
 * The admin screens, each its own chunk, listed apart from the other screens (app/screen-chunks.ts)
 * in a chunk of a fixed name that no officer downloads: a deploy that changes an admin screen
 * changes this list and that screen, and nothing an officer has.
 */
/** The start file this list was built with: a page running another cannot use its screens. */
export { BUILD_NAME as BUILT_WITH } from '../../lib/build-name.ts';

export const loadAdminDashboard = () => import('./admin-dashboard/admin-dashboard-screen.tsx');
export const loadManagePcns = () => import('./manage-pcns/manage-pcns-screen.tsx');
export const loadManageUsers = () => import('./manage-users/manage-users-screen.tsx');
export const loadManageCarParks = () => import('./manage-car-parks/manage-car-parks-screen.tsx');
export const loadClientOnboarding = () => import('./client-onboarding/client-onboarding-screen.tsx');
export const loadKeeperNotices = () => import('./keeper-notices/keeper-notices-screen.tsx');
export const loadCollectionLetters = () => import('./collection-letters/collection-letters-screen.tsx');
export const loadDebtRecovery = () => import('./debt-recovery/debt-recovery-screen.tsx');
export const loadAppeals = () => import('./appeals/appeals-screen.tsx');
export const loadNewAppeal = () => import('./appeals/new-appeal-screen.tsx');
export const loadAppeal = () => import('./appeals/appeal-screen.tsx');
export const loadOperatorSettings = () => import('./operator-settings/operator-settings-screen.tsx');
export const loadAnalytics = () => import('./analytics/analytics-screen.tsx');

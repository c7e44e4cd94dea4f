import { NAV_LABELS, SCREEN_TEXTS } from '@parkpatrol/shared';
import { ComingSoonScreen } from './placeholder-screens.tsx';

/**
 * The admin area's screens as the spec's route table shows them; loaded lazily from router.tsx
 * so officers never download them. Issue #6 replaces them with real screens.
 */
export const AdminDashboardPlaceholder = () => <ComingSoonScreen title={NAV_LABELS.adminDashboard} />;
export const ManagePcnsPlaceholder = () => <ComingSoonScreen title={NAV_LABELS.managePcns} />;
export const ManageUsersPlaceholder = () => <ComingSoonScreen title={NAV_LABELS.manageUsers} />;
export const ManageCarParksPlaceholder = () => <ComingSoonScreen title={NAV_LABELS.manageCarParks} />;
export const ClientOnboardingPlaceholder = () => <ComingSoonScreen title={SCREEN_TEXTS.clientOnboarding} />;
export const AnalyticsPlaceholder = () => <ComingSoonScreen title={SCREEN_TEXTS.analyticsDashboard} />;

/**
 * Labels of the side navigation entries (spec section 2, application shell). The top bar shows
 * the label of the entry matching the current path, and screens reuse them as headings.
 */
export const NAV_LABELS = {
  dashboard: 'Dashboard',
  newPcn: 'New PCN',
  myPcns: 'My PCNs',
  profile: 'Profile',
  adminDashboard: 'Admin Dashboard',
  managePcns: 'Manage PCNs',
  manageUsers: 'Manage Users',
  manageCarParks: 'Manage Car Parks',
} as const;

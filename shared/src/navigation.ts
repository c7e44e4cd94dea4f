/**
 * Labels of the side navigation entries (docs/product.md, The shell). The top bar shows
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

/** The admin's navigation groups after 'Administration' (docs/product.md, The shell): each folds under its heading. */
export const NAV_GROUP_LABELS = {
  afterTheNotice: 'After the notice',
} as const;

/** Every route of the web app, written once (bulletproof-react's config/paths). */
export const paths = {
  home: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  accessLinkPattern: '/u/:uniqueUrl',
  accessLink: (uniqueUrl: string) => `/u/${encodeURIComponent(uniqueUrl)}`,
  dashboard: '/dashboard',
  pcns: '/pcn',
  newPcn: '/pcn/new',
  /** An unfinished notice kept on the phone, resumed where it was left. */
  continueDraft: (draftId: string) => `/pcn/new?draft=${encodeURIComponent(draftId)}`,
  pcnPattern: '/pcn/:id',
  pcn: (id: string) => `/pcn/${encodeURIComponent(id)}`,
  editPcnPattern: '/pcn/:id/edit',
  editPcn: (id: string) => `/pcn/${encodeURIComponent(id)}/edit`,
  /** A notice in the outbox, not on the server yet: read from the phone, its notice to driver printed again. */
  outboxNoticePattern: '/outbox/:draftId',
  outboxNotice: (draftId: string) => `/outbox/${encodeURIComponent(draftId)}`,
  profile: '/profile',
  /** The motorist's page: no sign-in (a charge looked up by reference and registration). */
  charge: '/charge',
  /** The link emailed for an appeal from /charge: the motorist presses Send there to file the appeal. */
  chargeConfirmAppeal: '/charge/confirm-appeal',
  /** A car park's visitor page: no sign-in (decision 0041). */
  visitPattern: '/visit/:siteCode',
  visit: (siteCode: string) => `/visit/${encodeURIComponent(siteCode)}`,
  /** A landowner's own screens (decision 0042): their car parks, each with its charges, permits and report. */
  landowner: {
    home: '/landowner',
    carParkPattern: '/landowner/car-parks/:id',
    carPark: (carParkId: string) => `/landowner/car-parks/${encodeURIComponent(carParkId)}`,
  },
  admin: {
    root: '/admin',
    dashboard: '/admin/dashboard',
    pcns: '/admin/pcns',
    users: '/admin/users',
    carParks: '/admin/car-parks',
    carParkPermitsPattern: '/admin/car-parks/:id/permits',
    carParkPermits: (carParkId: string) => `/admin/car-parks/${encodeURIComponent(carParkId)}/permits`,
    carParkReportPattern: '/admin/car-parks/:id/report',
    carParkReport: (carParkId: string) => `/admin/car-parks/${encodeURIComponent(carParkId)}/report`,
    onboarding: '/admin/onboarding',
    analytics: '/admin/analytics',
    settings: '/admin/settings',
    keeperNotices: '/admin/keeper-notices',
    collectionLetters: '/admin/collection-letters',
    debtRecovery: '/admin/debt-recovery',
    appeals: '/admin/appeals',
    /** An appeal by email, post or phone against this charge, entered by an admin. */
    newAppeal: (pcnId: string) => `/admin/appeals/new?pcn=${encodeURIComponent(pcnId)}`,
    appealPattern: '/admin/appeals/:id',
    appeal: (id: string) => `/admin/appeals/${encodeURIComponent(id)}`,
  },
} as const;

/**
 * Every user-facing text of the screens, written once (docs/product.md says where each shows).
 * Fallbacks are used when the server gives no message (docs/product.md, Errors and fallback messages).
 */
export const ERROR_MESSAGES = {
  loginFailed: 'Login failed',
  tokenRefreshFailed: 'Token refresh failed',
  noRefreshToken: 'No refresh token available',
  resetEmailFailed: 'Failed to send reset email',
  deviceLinkEmailFailed: 'Failed to send the sign-in link',
  passwordResetFailed: 'Password reset failed',
  fetchPcns: 'Failed to fetch PCNs',
  fetchPcn: 'Failed to fetch PCN',
  createPcn: 'Failed to create PCN',
  updatePcn: 'Failed to update PCN',
  deletePcn: 'Failed to delete PCN',
  submitPcn: 'Failed to submit PCN',
  fetchUsers: 'Failed to fetch users',
  fetchProfile: 'Failed to fetch profile',
  updateProfile: 'Failed to update profile',
  createUser: 'Failed to create user',
  updateUser: 'Failed to update user',
  deleteUser: 'Failed to delete user',
  fetchCarParks: 'Failed to fetch car parks',
  fetchObservations: 'Failed to fetch observations',
  createCarPark: 'Failed to create car park',
  updateCarPark: 'Failed to update car park',
  deleteCarPark: 'Failed to delete car park',
  assignUser: 'Failed to assign user',
  unassignUser: 'Failed to unassign user',
  sendOnboardingEmail: 'Failed to send onboarding email',
  sendOnboardingEmails: 'Failed to send onboarding emails',
  fetchAnalytics: 'Failed to fetch analytics',
  fetchUserStats: 'Failed to fetch user stats',
  selectAtLeastOneUser: 'Please select at least one user',
  pcnNotFound: 'PCN not found',
} as const;

export const SUCCESS_MESSAGES = {
  passwordResetEmailSent: 'Password reset email sent',
  /** The same answer for any email, known or not. */
  deviceLinkEmailSent:
    'If this email has an account, a sign-in link for this device is on its way. Open the newest one on this device within one hour.',
  passwordResetSuccessful: 'Password reset successful',
  onboardingEmailSent: 'Onboarding email sent successfully',
  emailSentSuccessfully: 'Email sent successfully',
  signedOut: 'Signed out',
  userDeleted: 'User deleted',
  carParkDeleted: 'Car park deleted',
} as const;

export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  registrationRequired: 'Vehicle registration is required',
  registrationInvalid: 'Enter 2 to 10 letters and digits',
  carParkRequired: 'Choose a car park',
  offenceTypeRequired: 'Choose an offence type',
  descriptionTooLong: 'Description must be at most 2000 characters',
  locationRequired: 'Location is required',
  locationTooLong: 'Location must be at most 200 characters',
  imagesRequired: 'Add at least 4 photos of the offence',
  tooManyImages: 'At most 10 photos per PCN',
  imageTooLarge: 'Each photo must be 10 MB or smaller',
  imageTooManyPixels: 'Each photo must be at most 50 megapixels, and a PNG at most 16 megapixels (for example 4900 x 3265)',
  imageWrongType: 'Photos must be JPEG, PNG, WebP or HEIC images',
  pngHeaderNotSingle: 'A PNG must have exactly one header (IHDR), first: this one could decode to another size than it shows',
  pngAnimated: 'Animated PNGs (APNG, with acTL, fcTL or fdAT chunks) cannot be evidence: send a still photo',
  pngUnpacksBeyondHeader: 'This PNG unpacks to more data than its header (IHDR) declares, so its size cannot be trusted',
  pngDamaged: 'This PNG is damaged or not a standard PNG: send the photo again as taken',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  nameRequired: 'Name is required',
  currentPasswordRequired: 'Current password is required',
  passwordsDoNotMatch: 'Passwords do not match',
  noControlCharacters: 'Use a single line of text, without line breaks, control or invisible characters',
  noControlCharactersInText: 'Use plain text: line breaks and tabs are fine, control and invisible characters are not',
  observedAtInvalid: 'First sighting must be an ISO-8601 date-time with a time zone',
  issuedAtInvalid: 'Issue time must be an ISO-8601 date-time with a time zone',
  stayAppliesInvalid: "Stay applies must be 'true' or 'false'",
  noticeServedByRequired: 'Choose how the notice was served',
  noticeServedAtInvalid: 'Time of service must be an ISO-8601 date-time with a time zone',
  firstSeenAtInvalid: 'First seen must be an ISO-8601 date-time with a time zone',
  descriptionRequiredForOther: 'Describe what the driver did: an offence of type Other needs a description',
  serviceCorrectionReasonRequired: 'Say why the service is corrected',
  serviceCorrectionReasonTooLong: 'At most 500 characters',
  duplicateReasonTooLong: 'The reason must be at most 500 characters',
  duplicateReasonRequired: 'Give a reason for a second notice for this parking event',
} as const;

/** The server's own messages, which clients show as they are. */
export const SERVER_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  accountInactive: 'Invalid email or password',
  tooManyLoginAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  signInNeedsKnownDevice:
    'Too many failed sign-ins for this account. Sign in on a device you have used before, or reset your password with "Forgot your password?".',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  /** The motorist's lookup, after others' wrong tries: the page does the check by itself and sends it again. */
  chargeLookupCheckNeeded:
    'Many wrong attempts have been made with this reference, registration or connection, so your browser must do a short check first. Send the lookup again with the check.',
  notSignedIn: 'Please sign in to continue',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: "You don't have permission to do that",
  passwordRequired: 'Choose your password before using the app.',
  tooManyUploads: 'You are already sending several notices. This one will be sent when they are done.',
  uploadsBusy: 'The server is busy receiving photos. Please try again in a moment.',
  logoutNeedsSession: 'Nothing to sign out: send the refresh token, or a valid access token.',
  tooManyPasswordAttempts: 'Too many wrong current passwords. Please wait a few minutes and try again.',
  notFound: 'Not found',
  invalidJson: 'The request body is not valid JSON',
  invalidInput: 'Some fields are not valid',
  unstorableCharacter: 'The request contains a character that cannot be stored (a NUL byte). Remove it and try again.',
  bodyTooLarge: 'The request is too large',
  unsupportedMediaType: 'Unsupported content type',
  internal: 'Something went wrong on our side. Please try again.',
  invalidRefreshToken: 'Your session is no longer valid. Please sign in again.',
  invalidResetToken: 'This password reset link is invalid or has expired. Please request a new one.',
  invalidAccessLink: 'This access link is invalid, has expired or has already been used. Ask your administrator for a new one.',
  invalidDeviceLink: 'This sign-in link is invalid, has expired or has already been used. Ask for a new one below.',
  wrongCurrentPassword: 'Current password is incorrect',
  emailTaken: 'A user with this email already exists',
  userNotFound: 'User not found',
  carParkNotFound: 'Car park not found',
  cannotChangeSelf: 'You cannot delete, deactivate or demote your own account',
  cannotManageRole: 'Only a super admin can manage admin accounts',
  carParkNotAssigned: 'You are not assigned to this car park',
  permitNotFound: 'Permit not found',
  permitEnded: 'This permit has ended: add a new one instead',
  pcnNotEditable: 'This PCN can no longer be changed',
  transitionNotAllowed: 'That status change is not allowed',
  idempotencyKeyReused: 'This idempotency key was already used for a different PCN',
  idempotencyKeyInvalid: 'Idempotency-Key must be a UUID',
  invalidMultipart: 'Send the PCN as multipart/form-data',
  imageTakenAtInvalid: 'Each photo time must be an ISO-8601 date-time',
  imageFactsTooMany: 'More photo details were sent than photos',
  deviceTimeInvalid: 'X-Device-Time must be an ISO-8601 date-time with a time zone',
  userInactive: 'This user is inactive',
  siteCodeTaken: 'A car park with this site code already exists',
  carParkHasPcns: 'This car park has PCNs and cannot be deleted. Deactivate it instead.',
  tooManyPcnsSelected: 'Select at most 1,000 PCNs at once: narrow the filters first.',
  tooManyUsersSelected: 'Select at most 1,000 users at once: narrow the filters first.',
  evidencePackFailed:
    'This evidence pack could not be made: drawing it needed more memory or time than one pack may use. Nothing was changed, and other packs are made as usual.',
} as const;

/** Screen texts (docs/product.md, under each screen's heading). */
export const SCREEN_TEXTS = {
  signInSubtitle: 'Sign in to your account',
  signIn: 'Sign In',
  signingIn: 'Signing In...',
  forgotPasswordLink: 'Forgot your password?',
  /** Offered beside a refused sign-in: a stranger's guesses must not keep the owner's new device out. */
  emailDeviceLink: 'Email me a sign-in link for this device',
  sendingDeviceLink: 'Sending...',
  deviceLinkReady: 'Sign-in link opened: enter your password to sign in on this device.',
  loading: 'Loading...',
  authenticating: 'Authenticating...',
  accessDeniedTitle: 'Access Denied',
  accessDeniedText: "You don't have permission to access this page.",
  goToDashboard: 'Go to Dashboard',
  administration: 'Administration',
  profileSettings: 'Profile Settings',
  logout: 'Logout',
  dashboardSubtitle: 'Manage your PCNs and track their status',
  quickActions: 'Quick Actions',
  createNewPcn: 'Create New PCN',
  viewAllPcns: 'View All PCNs',
  yourStatistics: 'Your Statistics',
  recentPcns: 'Recent PCNs',
  viewAll: 'View All',
  noPcnsYet: 'No PCNs submitted yet. Create your first PCN to get started!',
  unknownCarPark: 'Unknown Car Park',
  noCarParksAssigned: 'You have no car parks assigned. Ask an administrator to assign one.',
  submitNewPcn: 'Submit New PCN',
  editPcn: 'Edit PCN',
  searchPcns: 'Search PCNs...',
  allStatuses: 'All Statuses',
  noPcnsFound: 'No PCNs found',
  tryAdjusting: 'Try adjusting your search or filter criteria.',
  noPcnsSubmitted: "You haven't submitted any PCNs yet.",
  submitFirstPcn: 'Submit Your First PCN',
  evidenceInstructions: 'Please upload at least 4 clear images of the offence from different angles.',
  submitPcn: 'Submit PCN',
  next: 'Next',
  back: 'Back',
  noImages: 'No images available',
  backToList: 'Back to PCN List',
  clientOnboarding: 'Client Onboarding',
  loadingUsers: 'Loading users...',
  selectUsersToOnboard: 'Select Users to Onboard',
  sendIndividual: 'Send individual onboarding email',
  sendOnboardingEmailsDialog: 'Send Onboarding Emails',
  adminNotesOptional: 'Admin Notes (Optional)',
  adminNotesPlaceholder: 'Add any specific instructions or information for the users...',
  sendEmails: 'Send Emails',
  sending: 'Sending...',
  onboardingResults: 'Onboarding Results',
  unknownUser: 'Unknown User',
  analyticsDashboard: 'Analytics Dashboard',
  /** The creditor, how to pay and the appeals service every notice prints (decision 0017). */
  operatorSettings: 'Operator Settings',
  /** Keeper replies in, notices to keeper out (decisions 0016 to 0018). */
  keeperNotices: 'Notices to Keeper',
  /** The reminders and letters before claim that chase an unpaid charge after its notice to keeper (decision 0039). */
  collectionLetters: 'Collection Letters',
  /** The motorists' appeals and their decisions (decision 0019). */
  appeals: 'Appeals',
  /** The hand-over to a debt recovery agency and its outcomes back (decision 0040). */
  debtRecovery: 'Debt Recovery',
  loadingAnalytics: 'Loading analytics...',
  userStatistics: 'User Statistics',
  recentActivity: 'Recent Activity',
  never: 'Never',
  noDescription: 'No description available',
  comingSoon: 'coming soon',
  forgotPasswordComingSoon: 'Forgot password page coming soon...',
  resetPasswordComingSoon: 'Reset password page coming soon...',
} as const;

export function sendOnboardingEmailsButton(count: number): string {
  return `Send Onboarding Emails (${count})`;
}

export function aboutToSendText(count: number): string {
  return `You are about to send onboarding emails to ${count} user(s).`;
}

export function welcomeBack(firstName: string): string {
  return `Welcome back, ${firstName}!`;
}

export function pcnTitle(pcnNumber: string): string {
  return `PCN-${pcnNumber}`;
}

/**
 * The visitor page a car park may offer (decision 0041): at `/visit/{siteCode}` (a tablet at
 * reception, or a QR code on a sign) a visitor enters their registration and the site's visitor
 * code, and gets a VISITOR permit until the end of the UK day. The landowner (or an admin) sets
 * the page's address, the code and how many visitors a day it takes.
 */
export const VISITOR_PAGE_LIMITS = {
  /** Places a car park's page gives a day unless its landowner says otherwise, and the most it may. */
  defaultDaily: 50,
  mostDaily: 1000,
  /**
   * Registrations one network address may make at one car park in a day. A reception tablet is one
   * address for all its visitors, so this is set well above a day's visitors at a small site and
   * far below what a script would try; the car park's own daily limit is the real cap.
   */
  perAddressDaily: 60,
  /** Wrong visitor codes one address may try in 15 minutes before it must wait. */
  wrongCodesPerAddress: 10,
} as const;

export const VISITOR_SITE_CODE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;

/** GET/PUT /car-parks/:id/visitor: the page's settings as its landowner sees them. */
export type VisitorPageSettings = {
  /** The page's address `/visit/{siteCode}`; null: the car park has no visitor page. */
  siteCode: string | null;
  visitorCode: string | null;
  dailyLimit: number;
  /** Visitor permits the page gave today (UK day). */
  usedToday: number;
};

/** GET /public/visit/:siteCode: what the visitor page shows before anything is typed. */
export type VisitorPageInfo = { carParkName: string };

/** POST /public/visit/:siteCode: the permit the visitor was given. */
export type VisitorPermitGranted = { carParkName: string; vehicleRegistration: string; validUntil: string; message: string };

export const VISITOR_TEXTS = {
  pageNotFound: 'This visitor page does not exist. Check the address on the sign.',
  wrongCode: 'That visitor code is not right. Ask at reception.',
  codeRequired: 'Enter the visitor code',
  full: 'This car park has no visitor places left today. Ask at reception.',
  tooManyFromHere: 'Too many registrations from this device today. Ask at reception.',
  tooManyWrongCodes: 'Too many wrong codes. Wait a few minutes, then try again.',
  siteCodeTaken: 'Another car park uses this page address',
  siteCodeInvalid: 'Use 3 to 40 lower-case letters, digits and hyphens, e.g. riverside-house',
  visitorCodeInvalid: 'Use 4 to 20 letters and digits',
  granted: (registration: string, untilDay: string) => `${registration} may park here until the end of ${untilDay}.`,
} as const;

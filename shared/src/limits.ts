/** The product's limits, each written once (docs/product.md, Limits). */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
/** The most rows one bulk action (and one 'select all matching') covers: per-row results stay readable. */
export const MAX_BULK_ITEMS = 1000;
/** The most notices to keeper in one batch: a large operator's day, made as a job, not in a request. */
export const MAX_LETTER_BATCH = 5000;
export const RECENT_PCNS_COUNT = 5;
export const MIN_PASSWORD_LENGTH = 6;
export const MIN_EVIDENCE_IMAGES = 4;
export const MAX_IMAGES_PER_PCN = 10;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * A photo's pixels, read from its header at upload: a few kilobytes of PNG can decode to
 * gigabytes (an image bomb). 50 megapixels is more than any phone camera writes.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** A PNG is decoded whole to go into an evidence pack (four bytes a pixel): 16 megapixels at most. */
export const MAX_PNG_PIXELS = 16_000_000;
/**
 * The PNG pixels one evidence pack decodes in all (JPEGs go in as their own bytes, undecoded):
 * the decoded buffers live outside the JavaScript heap, so the worker's heap limit does not bound
 * them and this does. Two PNGs at the largest size, or ten of a phone screenshot's.
 */
export const MAX_PACK_PNG_PIXELS = 32_000_000;
export const ACTIVE_USER_DAYS = 30;
export const WIZARD_STEPS = ['Vehicle Details', 'Offence Information', 'Upload Evidence', 'Review & Submit'] as const;
export const PREVIEW_THUMBNAIL_PX = 150;
export const SIDE_NAV_WIDTH_PX = 240;

export const ALLOWED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export type AllowedImageType = (typeof ALLOWED_IMAGE_TYPES)[number];

/** Local storage keys of the session's tokens (docs/product.md, Sessions; decision 0015). */
export const TOKEN_STORAGE_KEY = 'token';
export const REFRESH_TOKEN_STORAGE_KEY = 'refreshToken';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** An Idempotency-Key, and the ids phones make: a UUID. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Multipart field names of POST /pcns and PUT /pcns/{id} besides the text fields of
 * pcnFieldsSchema: repeated image files and, for each, optional facts repeated in the same order
 * (the n-th value belongs to the n-th image; an empty value means "not known"; send none or one
 * per image, never more values than images), and on PUT the ids of images to remove.
 *
 * - imageTakenAt: ISO-8601 date-time with offset, when the photo was taken
 * - imageTakenAtSource: 'camera' (from the file's EXIF) or 'added' (when added to the form)
 * - imageSha256: 64 hex digits, SHA-256 of the exact bytes sent, computed on the device
 * - imageLatitude / imageLongitude: WGS84 degrees; both or neither
 * - imageAccuracy: GPS accuracy in metres (0 to 100,000); only with a position
 * - imageShots: comma-separated PHOTO_SHOT_TYPES ids the photo shows (empty: none)
 */
export const PCN_MULTIPART_FIELDS = {
  vehicleRegistration: 'vehicleRegistration',
  carParkId: 'carParkId',
  offenceType: 'offenceType',
  description: 'description',
  location: 'location',
  observedAt: 'observedAt',
  issuedAt: 'issuedAt',
  stayApplies: 'stayApplies',
  duplicateReason: 'duplicateReason',
  permitOverrideReason: 'permitOverrideReason',
  noticeServedBy: 'noticeServedBy',
  noticeServedAt: 'noticeServedAt',
  firstSeenAt: 'firstSeenAt',
  serviceCorrectionReason: 'serviceCorrectionReason',
  images: 'images',
  imageTakenAt: 'imageTakenAt',
  imageTakenAtSource: 'imageTakenAtSource',
  imageSha256: 'imageSha256',
  imageLatitude: 'imageLatitude',
  imageLongitude: 'imageLongitude',
  imageAccuracy: 'imageAccuracy',
  imageShots: 'imageShots',
  removeImageIds: 'removeImageIds',
} as const;

/** The largest imageAccuracy (metres) the API accepts; a fix vaguer than 100 km is not a position. */
export const MAX_IMAGE_ACCURACY_M = 100_000;

/**
 * Sent by the device on POST and PUT /pcns with its own clock's ISO-8601 time, so the server can
 * record how far off the phone's clock was (server receipt time minus device time).
 */
export const DEVICE_TIME_HEADER = 'X-Device-Time';

export const DEFAULT_PRODUCT_NAME = 'ParkPatrol';

/**
 * PRODUCT_NAME is plain words: it goes into index.html, the manifest, emails and PDFs. Markup
 * or control characters are refused at build and at start, naming the variable (the CSP would
 * hash an injected inline script along with ours).
 */
export function productNameProblem(name: string): string | null {
  if (name.trim() === '' || name.length > 60) return 'PRODUCT_NAME must be 1 to 60 characters';
  if (/[<>&"'`\\\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u.test(name)) {
    return 'PRODUCT_NAME must be plain text: no < > & " \' ` \\ or control characters';
  }
  return null;
}

/**
 * Where the web build writes each script that starts a worker (sw.js aside). A worker obeys the
 * security policy sent with its own script, so these keep it; other scripts need none.
 */
export const WORKER_SCRIPT_PREFIX = 'assets/worker-';
export function productTitle(productName: string): string {
  return `${productName} Self Ticketing`;
}

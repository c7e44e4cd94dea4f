/** Business constants (spec section 9 and design section 4). */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const RECENT_PCNS_COUNT = 5;
export const MIN_PASSWORD_LENGTH = 6;
export const MIN_EVIDENCE_IMAGES = 4;
export const MAX_IMAGES_PER_PCN = 10;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const ACTIVE_USER_DAYS = 30;
export const WIZARD_STEPS = ['Vehicle Details', 'Offence Information', 'Upload Evidence', 'Review & Submit'] as const;
export const PREVIEW_THUMBNAIL_PX = 150;
export const SIDE_NAV_WIDTH_PX = 240;

export const ALLOWED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export type AllowedImageType = (typeof ALLOWED_IMAGE_TYPES)[number];

/** Local storage keys for tokens (spec section 9). */
export const TOKEN_STORAGE_KEY = 'token';
export const REFRESH_TOKEN_STORAGE_KEY = 'refreshToken';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Multipart field names of POST /pcns and PUT /pcns/{id} besides the text fields of
 * pcnFieldsSchema: repeated image files, an optional capture time per image in the same order
 * (ISO-8601, empty for unknown), and on PUT the ids of images to remove.
 */
export const PCN_MULTIPART_FIELDS = {
  images: 'images',
  imageTakenAt: 'imageTakenAt',
  removeImageIds: 'removeImageIds',
} as const;

export const DEFAULT_PRODUCT_NAME = 'ParkPatrol';
export function productTitle(productName: string): string {
  return `${productName} Self Ticketing`;
}

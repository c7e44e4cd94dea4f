/**
 * The two lists of lazily loaded screens, built under fixed names at the site's root rather
 * than hashed under /assets/ (app/screen-chunks.ts says why): the server revalidates them on
 * each visit, and the service worker knows them by these names.
 */
export const SCREENS_CHUNK = 'screens.js';
export const ADMIN_SCREENS_CHUNK = 'admin-screens.js';

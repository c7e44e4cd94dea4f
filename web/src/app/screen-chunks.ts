/**
 * Every screen the router loads lazily, each its own chunk, so the sign-in screen downloads none
 * of them. Named loaders, so the router and the idle prefetch ask for the same chunks. Every one
 * is in the service worker's precache: offline they load from the phone.
 *
 * A chunk names each chunk it imports by its hashed name, so this list changes with any screen.
 * Its own chunk has a fixed name (vite.config.ts): the entry that imports it, and so index.html,
 * stay the same when one screen changes, and a phone downloads that screen and this list only.
 * Admin screens are listed apart (features/admin/admin-screen-chunks.ts), so that an admin
 * screen's deploy changes nothing an officer has.
 */
export const loadAppShell = () => import('./shell/app-shell.tsx');
export const loadOfficerScreens = () => import('./routes/officer-screens.tsx');
export const loadPcnForm = () => import('../features/pcns/pcn-form/pcn-form-screen.tsx');
export const loadPcnDetail = () => import('../features/pcns/pcn-detail.tsx');
export const loadProfile = () => import('../features/profile/profile-screen.tsx');
export const loadForgotPassword = () => import('../features/password-reset/forgot-password-screen.tsx');
export const loadResetPassword = () => import('../features/password-reset/reset-password-screen.tsx');
export const loadVisit = () => import('../features/visit/visit-screen.tsx');
export const loadConfirmAppeal = () => import('../features/charge/confirm-appeal-screen.tsx');
export const loadAccessLink = () => import('../features/access-link/access-link-screen.tsx');
export const loadCarParkPermits = () => import('../features/permits/car-park-permits-screen.tsx');
export const loadLandownerScreens = () => import('../features/landowner/landowner-screens.tsx');
export const loadLandownerRoutes = () => import('./routes/landowner-screens.tsx');
/** The admin screens' own list, fetched when an admin screen is first opened. */
export const loadAdminScreens = () => import('../features/admin/admin-screen-chunks.ts');

/**
 * Fetches the screens an officer most likely opens next, once the browser is idle. A failure
 * costs nothing: the navigation fetches the chunk itself.
 */
export function prefetchWhenIdle(...loads: Array<() => Promise<unknown>>): () => void {
  const run = () => {
    for (const load of loads) load().catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 5000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 2000);
  return () => clearTimeout(timer);
}

/**
 * The signed-in officer screens, each its own chunk, so the sign-in screen downloads none of
 * them. Named loaders, so the router and the idle prefetch ask for the same chunks.
 * Every one is in the service worker's precache: offline they load from the phone.
 */
export const loadAppShell = () => import('./shell/app-shell.tsx');
export const loadOfficerScreens = () => import('./routes/officer-screens.tsx');
export const loadPcnForm = () => import('../features/pcns/pcn-form/pcn-form-screen.tsx');
export const loadPcnDetail = () => import('../features/pcns/pcn-detail.tsx');

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

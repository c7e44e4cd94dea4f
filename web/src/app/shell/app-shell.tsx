import { Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { isLandownerPath } from '../guards.tsx';
import { Menu as MenuIcon, X } from 'lucide-react';
import { isAdminRole, isLandownerRole } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../features/auth/session-store.ts';
import { OUTBOX_TEXTS } from '../../features/outbox/outbox-texts.ts';
import { useUnsentCount } from '../../features/outbox/use-outbox.ts';
import { ConfirmDialog } from '../../lib/confirm-dialog.tsx';
import { CurrentUserContext } from '../../lib/current-user.tsx';
import { Dialog } from '../../lib/dialog.tsx';
import { focusPageHeading } from '../../lib/page-heading.tsx';
import { FullPageSpinner } from '../../lib/spinner.tsx';
import { AccountMenu } from './account-menu.tsx';
import { findCurrentEntry } from './nav-entries.ts';
import { SideNav } from './side-nav.tsx';
import { TopbarStatus } from './topbar-status.tsx';
import { ObservationDueBanner } from '../../features/pcns/observations/observation-due-banner.tsx';
import { useSignedInWork } from './use-signed-in-work.ts';

/** Signed-in layout: top bar, side navigation (permanent from the medium breakpoint, else a drawer), main area. */
export function AppShell() {
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const navigate = useNavigate();
  const location = useLocation();
  const [isDrawerOpen, setDrawerOpen] = useState(false);
  const [isLogoutOpen, setLogoutOpen] = useState(false);
  const isAdmin = isAdminRole(user?.role);
  const isLandowner = isLandownerRole(user?.role);
  const current = findCurrentEntry(location.pathname, isAdmin, isLandowner);
  const title = current?.label ?? PRODUCT_TITLE;
  const userId = user?.id ?? null;
  // A landowner files nothing and keeps nothing on the phone: none of an officer's background work.
  useSignedInWork(isLandowner ? null : userId);
  const unsentCount = useUnsentCount(isLandowner ? null : userId);

  useEffect(() => {
    document.title = current ? `${current.label} · ${PRODUCT_TITLE}` : PRODUCT_TITLE;
  }, [current]);

  useRouteChangeFocus(location.pathname);

  async function logOut() {
    await logout();
    void navigate(paths.login, { replace: true });
  }

  // Notices not yet sent stay on this phone for this officer's next sign-in: say so first.
  function handleLogout() {
    if (unsentCount > 0) setLogoutOpen(true);
    else void logOut();
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="button button--icon topbar__menu"
          aria-label="Open navigation"
          aria-haspopup="dialog"
          onClick={() => setDrawerOpen(true)}
        >
          <MenuIcon aria-hidden="true" size={24} />
        </button>
        <p className="topbar__title">{title}</p>
        {isLandowner ? null : <TopbarStatus userId={userId} />}
        <AccountMenu user={user} onLogout={handleLogout} />
      </header>
      <aside className="shell__sidebar">
        <SideNav currentHref={current?.href} isAdmin={isAdmin} isLandowner={isLandowner} />
      </aside>
      <Dialog isOpen={isDrawerOpen} onClose={() => setDrawerOpen(false)} className="drawer" aria-label="Navigation">
        <div className="drawer__dialog">
          <button
            type="button"
            className="button button--icon drawer__close"
            aria-label="Close navigation"
            onClick={() => setDrawerOpen(false)}
          >
            <X aria-hidden="true" size={24} />
          </button>
          <SideNav currentHref={current?.href} isAdmin={isAdmin} isLandowner={isLandowner} onNavigate={() => setDrawerOpen(false)} />
        </div>
      </Dialog>
      {isLogoutOpen ? (
        <ConfirmDialog
          isOpen
          onClose={() => setLogoutOpen(false)}
          title={OUTBOX_TEXTS.logoutTitle}
          message={OUTBOX_TEXTS.logoutMessage(unsentCount)}
          confirmLabel={OUTBOX_TEXTS.logoutConfirm}
          onConfirm={logOut}
        />
      ) : null}
      <main className="shell__main" id="main">
        <CurrentUserContext.Provider value={user}>
          {/* An observation falling due is said on every screen but its own form. */}
          {isLandowner ? null : <ObservationDueBanner userId={userId} exceptDraftId={new URLSearchParams(location.search).get('draft')} />}
          {/* Mounted once: moving between screens keeps the shell and shows the next screen when ready. */}
          <Suspense fallback={<FullPageSpinner />}>
            {isLandowner && !isLandownerPath(location.pathname) ? <Navigate to={paths.landowner.home} replace /> : <Outlet />}
          </Suspense>
        </CurrentUserContext.Provider>
      </main>
    </div>
  );
}

/** After navigating, focus moves to the new screen's h1 so assistive technology announces it. */
function useRouteChangeFocus(pathname: string) {
  const isFirst = useRef(true);
  useEffect(() => {
    if (isFirst.current) {
      isFirst.current = false;
      return;
    }
    // Screens that load their data first render a spinner; wait (about a second at most) for
    // their heading instead of leaving focus on a link that no longer exists.
    let frame = 0;
    let attempts = 0;
    const tryFocus = () => {
      // A screen that put the officer in its first field (a new notice's registration) keeps it:
      // the field's label says where they are, and the keyboard is already up.
      if (document.activeElement?.matches('main input:not([type=checkbox]):not([type=radio]), main textarea')) return;
      if (focusPageHeading() || ++attempts > 60) return;
      frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
}

import { SCREEN_TEXTS } from '@parkpatrol/shared';
import { Link } from 'react-router-dom';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { ADMIN_NAV, LANDOWNER_NAV, MAIN_NAV, type NavEntry } from './nav-entries.ts';

type SideNavProps = {
  currentHref: string | undefined;
  isAdmin: boolean;
  /** A landowner sees only their own screens (decision 0042). */
  isLandowner?: boolean;
  /** Drawer mode: close after navigating (spec: small screens). */
  onNavigate?: () => void;
  id?: string;
};

export function SideNav({ currentHref, isAdmin, isLandowner = false, onNavigate, id }: SideNavProps) {
  return (
    <nav className="side-nav" aria-label="Main" id={id}>
      <div className="side-nav__title">{PRODUCT_TITLE}</div>
      <NavList entries={isLandowner ? LANDOWNER_NAV : MAIN_NAV} currentHref={currentHref} onNavigate={onNavigate} />
      {isAdmin ? (
        <>
          <h2 className="side-nav__section" id="side-nav-admin">
            {SCREEN_TEXTS.administration}
          </h2>
          <NavList entries={ADMIN_NAV} currentHref={currentHref} onNavigate={onNavigate} labelledBy="side-nav-admin" />
        </>
      ) : null}
    </nav>
  );
}

function NavList({
  entries,
  currentHref,
  onNavigate,
  labelledBy,
}: {
  entries: readonly NavEntry[];
  currentHref: string | undefined;
  onNavigate?: () => void;
  labelledBy?: string;
}) {
  return (
    <ul className="side-nav__list" aria-labelledby={labelledBy}>
      {entries.map((entry) => {
        const isCurrent = entry.href === currentHref;
        const Icon = entry.icon;
        return (
          <li key={entry.href}>
            <Link to={entry.href} className="side-nav__link" aria-current={isCurrent ? 'page' : undefined} onClick={onNavigate}>
              <Icon aria-hidden="true" size={20} />
              <span>{entry.label}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ChevronDown } from 'lucide-react';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { setGroupFolded, useFoldedGroups } from './nav-group-memory.ts';
import { ADMIN_NAV_GROUPS, LANDOWNER_NAV, MAIN_NAV, type NavEntry, type NavGroup } from './nav-entries.ts';

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
  const ref = useRef<HTMLElement>(null);
  // On a screen too short for every entry, the navigation scrolls: the current one is brought into it.
  useEffect(() => {
    ref.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest' });
  }, [currentHref]);
  return (
    <nav className="side-nav" aria-label="Main" id={id} ref={ref}>
      <div className="side-nav__title">{PRODUCT_TITLE}</div>
      <NavList entries={isLandowner ? LANDOWNER_NAV : MAIN_NAV} currentHref={currentHref} onNavigate={onNavigate} />
      {isAdmin
        ? ADMIN_NAV_GROUPS.map((group) => <FoldingGroup key={group.id} group={group} currentHref={currentHref} onNavigate={onNavigate} />)
        : null}
    </nav>
  );
}

/**
 * A group of entries under a heading that folds it away (a disclosure button), remembered on the
 * device. A folded group still shows the current screen's entry, so where the admin is stays in view.
 */
function FoldingGroup({ group, currentHref, onNavigate }: { group: NavGroup; currentHref: string | undefined; onNavigate?: () => void }) {
  const isFolded = useFoldedGroups().has(group.id);
  const headingId = useId();
  const listId = useId();
  const shown = isFolded ? group.entries.filter((entry) => entry.href === currentHref) : group.entries;
  return (
    <>
      <h2 className="side-nav__section">
        <button
          type="button"
          id={headingId}
          className="side-nav__toggle"
          aria-expanded={!isFolded}
          aria-controls={listId}
          onClick={() => setGroupFolded(group.id, !isFolded)}
        >
          <span>{group.label}</span>
          <ChevronDown aria-hidden="true" size={18} className="side-nav__chevron" />
        </button>
      </h2>
      <NavList id={listId} entries={shown} currentHref={currentHref} onNavigate={onNavigate} labelledBy={headingId} />
    </>
  );
}

function NavList({
  id,
  entries,
  currentHref,
  onNavigate,
  labelledBy,
}: {
  id?: string;
  entries: readonly NavEntry[];
  currentHref: string | undefined;
  onNavigate?: () => void;
  labelledBy?: string;
}) {
  return (
    <ul className="side-nav__list" id={id} aria-labelledby={labelledBy} hidden={entries.length === 0}>
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

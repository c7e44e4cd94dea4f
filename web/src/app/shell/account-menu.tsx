import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { initialsOf, SCREEN_TEXTS, type User } from '@parkpatrol/shared';
import { LogOut, Settings } from 'lucide-react';
import { paths } from '../../config/paths.ts';

/** Where arrow keys, Home and End move within a menu of `count` items (the WAI-ARIA menu button pattern). */
export function nextMenuIndex(key: string, current: number, count: number): number | null {
  if (key === 'ArrowDown') return (current + 1) % count;
  if (key === 'ArrowUp') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * The account button and its menu, by the WAI-ARIA menu button pattern in plain HTML (the
 * signed-in shell carries no react-aria): focus moves into the menu when it opens, arrow keys
 * move between items, Escape closes it and gives focus back to the button, Tab or a tap
 * elsewhere closes it.
 */
export function AccountMenu({ user, onLogout }: { user: User | null; onLogout: () => void }) {
  const name = user ? `${user.firstName} ${user.lastName}` : '';
  const [isOpen, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!isOpen) return;
    menuItems(menuRef.current)[0]?.focus();
    const closeOnOutsidePress = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsidePress);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePress);
  }, [isOpen]);

  function handleMenuKey(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    if (event.key === 'Tab') {
      setOpen(false);
      return;
    }
    const items = menuItems(menuRef.current);
    const next = nextMenuIndex(event.key, items.indexOf(document.activeElement as HTMLElement), items.length);
    if (next === null) return;
    event.preventDefault();
    items[next]?.focus();
  }

  return (
    <div className="account">
      <button
        ref={buttonRef}
        type="button"
        className="account-button"
        aria-label={`Account menu for ${name}`}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        onClick={() => setOpen((open) => !open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">{user ? initialsOf(user) : ''}</span>
      </button>
      {isOpen ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Account"
          className="menu-popover menu account-menu"
          onKeyDown={handleMenuKey}
        >
          <Link role="menuitem" tabIndex={-1} to={paths.profile} className="menu__item" onClick={() => setOpen(false)}>
            <Settings aria-hidden="true" size={18} />
            {SCREEN_TEXTS.profileSettings}
          </Link>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="menu__item"
            onClick={() => {
              setOpen(false);
              onLogout();
            }}
          >
            <LogOut aria-hidden="true" size={18} />
            {SCREEN_TEXTS.logout}
          </button>
        </div>
      ) : null}
    </div>
  );
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')] : [];
}

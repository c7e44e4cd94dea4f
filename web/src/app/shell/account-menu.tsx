import { initialsOf, SCREEN_TEXTS, type User } from '@parkpatrol/shared';
import { LogOut, Settings } from 'lucide-react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { paths } from '../../config/paths.ts';

export function AccountMenu({ user, onLogout }: { user: User | null; onLogout: () => void }) {
  const name = user ? `${user.firstName} ${user.lastName}` : '';
  return (
    <MenuTrigger>
      <Button className="account-button" aria-label={`Account menu for ${name}`}>
        <span aria-hidden="true">{user ? initialsOf(user) : ''}</span>
      </Button>
      <Popover placement="bottom end" className="menu-popover">
        <Menu
          className="menu"
          aria-label="Account"
          onAction={(key) => {
            if (key === 'logout') onLogout();
          }}
        >
          <MenuItem id="profile" href={paths.profile} className="menu__item">
            <Settings aria-hidden="true" size={18} />
            {SCREEN_TEXTS.profileSettings}
          </MenuItem>
          <MenuItem id="logout" className="menu__item">
            <LogOut aria-hidden="true" size={18} />
            {SCREEN_TEXTS.logout}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

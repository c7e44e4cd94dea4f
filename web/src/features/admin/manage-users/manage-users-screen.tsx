import { useState } from 'react';
import { Button as AriaButton, Cell, Column, Input, Label, Menu, MenuItem, MenuTrigger, Popover, Row, SearchField, Table, TableBody, TableHeader } from 'react-aria-components';
import { MoreVertical, Search, UserPlus } from 'lucide-react';
import {
  ADMIN_TEXTS,
  canManageRole,
  DEFAULT_LIMIT,
  ERROR_MESSAGES,
  NAV_LABELS,
  ROLE_LABELS,
  ROLES,
  SUCCESS_MESSAGES,
  userExportFileName,
  type Role,
  type User,
} from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { useCurrentUser } from '../../../lib/current-user.tsx';
import { formatDate } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { getAllCarParks } from '../api/car-parks.ts';
import { sendOnboardingEmail } from '../api/onboarding.ts';
import { deleteUser, exportUsersCsv, getUsers, updateUser, USER_EXPORT_FAILED } from '../api/users.ts';
import { ExportButton } from '../components/export-button.tsx';
import { ActiveChip, RoleChip } from '../components/chips.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DismissibleAlert, type Notice } from '../components/dismissible-alert.tsx';
import { PaginationBar } from '../components/pagination-bar.tsx';
import { UserCarParksDialog } from './user-car-parks-dialog.tsx';
import { UserFormDialog } from './user-form-dialog.tsx';
import '../admin.css';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; user: User }
  | { kind: 'car-parks'; user: User }
  | { kind: 'delete'; user: User }
  | { kind: 'deactivate'; user: User }
  | null;

const ALL = 'all';
const ROLE_FILTER_OPTIONS = [{ id: ALL, label: 'All roles' }, ...ROLES.map((r) => ({ id: r, label: ROLE_LABELS[r] }))];
const STATUS_FILTER_OPTIONS = [
  { id: ALL, label: 'All users' },
  { id: 'true', label: ADMIN_TEXTS.active },
  { id: 'false', label: ADMIN_TEXTS.inactive },
];

const fullName = (user: User) => `${user.firstName} ${user.lastName}`;

export function ManageUsersScreen() {
  const me = useCurrentUser();
  const actorRole: Role = me?.role ?? 'USER';
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<string>(ALL);
  const [status, setStatus] = useState<string>(ALL);
  const [page, setPage] = useState(1);
  const debouncedSearch = useDebouncedValue(search, 300);
  const users = useAsync(
    () => getUsers({ page, limit: DEFAULT_LIMIT, search: debouncedSearch, role: role === ALL ? null : (role as Role), isActive: status === ALL ? null : status === 'true' }),
    [page, debouncedSearch, role, status],
    ERROR_MESSAGES.fetchUsers,
  );
  const carParks = useAsync(getAllCarParks, [], ERROR_MESSAGES.fetchCarParks);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busyUserId, setBusyUserId] = useState<string | null>(null);
  const [isConfirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  function changeFilter<T>(set: (value: T) => void) {
    return (value: T) => {
      set(value);
      setPage(1);
    };
  }

  function closeDialog() {
    setDialog(null);
    setConfirmError(null);
  }

  async function runRowAction(user: User, action: () => Promise<string>, fallback: string) {
    setBusyUserId(user.id);
    setNotice(null);
    try {
      setNotice({ tone: 'success', text: await action() });
      users.reload();
    } catch (error) {
      setNotice({ tone: 'error', text: toApiError(error, fallback).message });
    } finally {
      setBusyUserId(null);
    }
  }

  async function confirmAction(user: User, action: () => Promise<string>, fallback: string) {
    setConfirmBusy(true);
    setConfirmError(null);
    try {
      const text = await action();
      closeDialog();
      setNotice({ tone: 'success', text });
      users.reload();
    } catch (error) {
      setConfirmError(toApiError(error, fallback).message);
    } finally {
      setConfirmBusy(false);
    }
  }

  function handleAction(user: User, key: string) {
    if (key === 'edit') setDialog({ kind: 'edit', user });
    else if (key === 'car-parks') setDialog({ kind: 'car-parks', user });
    else if (key === 'delete') setDialog({ kind: 'delete', user });
    else if (key === 'deactivate') setDialog({ kind: 'deactivate', user });
    else if (key === 'activate') {
      void runRowAction(user, async () => {
        await updateUser(user.id, { isActive: true });
        return `${fullName(user)} is active again.`;
      }, ERROR_MESSAGES.updateUser);
    } else if (key === 'onboarding') {
      void runRowAction(user, async () => {
        await sendOnboardingEmail(user.id);
        return `${SUCCESS_MESSAGES.onboardingEmailSent} to ${user.email}.`;
      }, ERROR_MESSAGES.sendOnboardingEmail);
    }
  }

  const data = users.data;
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.manageUsers}</PageHeading>
        <ExportButton
          load={() => exportUsersCsv({ search: debouncedSearch, role: role === ALL ? null : (role as Role), isActive: status === ALL ? null : status === 'true' })}
          fileName={userExportFileName}
          failedMessage={USER_EXPORT_FAILED}
        />
        <Button onPress={() => setDialog({ kind: 'create' })}>
          <UserPlus aria-hidden="true" size={18} />
          Create user
        </Button>
      </div>

      <div className="admin-filters" role="search" aria-label="Filter users">
        <SearchField className="field admin-filters__search" value={search} onChange={changeFilter(setSearch)}>
          <Label className="field__label">Search</Label>
          <div className="search-input">
            <Search aria-hidden="true" size={18} className="search-input__icon" />
            <Input className="field__input search-input__field" placeholder="Name or email" />
          </div>
        </SearchField>
        <SelectField label={ADMIN_TEXTS.role} options={ROLE_FILTER_OPTIONS} value={role} onChange={(v) => changeFilter(setRole)(v ?? ALL)} />
        <SelectField label={ADMIN_TEXTS.status} options={STATUS_FILTER_OPTIONS} value={status} onChange={(v) => changeFilter(setStatus)(v ?? ALL)} />
      </div>

      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />
      {users.error ? <Alert>{users.error.message}</Alert> : null}

      {!data && users.isLoading ? (
        <Spinner />
      ) : data ? (
        <>
          <div className="admin-table-scroll" aria-busy={users.isLoading}>
            <Table aria-label="Users" className="table">
              <TableHeader>
                <Column isRowHeader>{ADMIN_TEXTS.name}</Column>
                <Column>{ADMIN_TEXTS.email}</Column>
                <Column>{ADMIN_TEXTS.role}</Column>
                <Column>{ADMIN_TEXTS.status}</Column>
                <Column>Car parks</Column>
                <Column>{ADMIN_TEXTS.created}</Column>
                <Column>{ADMIN_TEXTS.actions}</Column>
              </TableHeader>
              <TableBody items={data.users} dependencies={[busyUserId, me?.id]} renderEmptyState={() => <p className="table__empty">No users match these filters.</p>}>
                {(user) => {
                  const isSelf = user.id === me?.id;
                  const canManage = canManageRole(actorRole, user.role);
                  return (
                    <Row id={user.id} className="table__row" textValue={fullName(user)}>
                      <Cell>{fullName(user)}</Cell>
                      <Cell>{user.email}</Cell>
                      <Cell>
                        <RoleChip role={user.role} />
                      </Cell>
                      <Cell>
                        <ActiveChip isActive={user.isActive} />
                      </Cell>
                      <Cell className="table__wrap">{user.carParks?.length ? user.carParks.map((p) => p.name).join(', ') : <span className="muted">None</span>}</Cell>
                      <Cell className="table__nowrap">{formatDate(user.createdAt)}</Cell>
                      <Cell>
                        {canManage ? (
                          <MenuTrigger>
                            <AriaButton className="button button--icon" aria-label={`Actions for ${fullName(user)}`} isDisabled={busyUserId === user.id}>
                              <MoreVertical aria-hidden="true" size={20} />
                            </AriaButton>
                            <Popover placement="bottom end" className="menu-popover">
                              <Menu className="menu" aria-label={`Actions for ${fullName(user)}`} onAction={(key) => handleAction(user, String(key))}>
                                <MenuItem id="edit" className="menu__item">Edit</MenuItem>
                                <MenuItem id="car-parks" className="menu__item">Assign car parks</MenuItem>
                                {user.isActive ? <MenuItem id="onboarding" className="menu__item">Send onboarding email</MenuItem> : null}
                                {isSelf ? null : user.isActive ? (
                                  <MenuItem id="deactivate" className="menu__item">Deactivate</MenuItem>
                                ) : (
                                  <MenuItem id="activate" className="menu__item">Activate</MenuItem>
                                )}
                                {isSelf ? null : <MenuItem id="delete" className="menu__item">Delete</MenuItem>}
                              </Menu>
                            </Popover>
                          </MenuTrigger>
                        ) : (
                          <span className="muted">Super admin only</span>
                        )}
                      </Cell>
                    </Row>
                  );
                }}
              </TableBody>
            </Table>
          </div>
          <PaginationBar pagination={data.pagination} onPageChange={setPage} label="Users" />
        </>
      ) : null}

      {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
        <UserFormDialog
          user={dialog.kind === 'edit' ? dialog.user : null}
          actorRole={actorRole}
          isSelf={dialog.kind === 'edit' && dialog.user.id === me?.id}
          carParks={carParks.data ?? []}
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          onSaved={(saved, isNew) => {
            closeDialog();
            setNotice({ tone: 'success', text: isNew ? `${fullName(saved)} was created. Send the onboarding email so they can sign in.` : `${fullName(saved)} was updated.` });
            users.reload();
          }}
        />
      ) : null}

      {dialog?.kind === 'car-parks' ? (
        <UserCarParksDialog
          user={dialog.user}
          carParks={carParks.data ?? []}
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          onSaved={() => {
            closeDialog();
            setNotice({ tone: 'success', text: `Car parks of ${fullName(dialog.user)} were saved.` });
            users.reload();
          }}
        />
      ) : null}

      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title="Delete user"
          keepLabel="Keep user"
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          confirmLabel="Delete user"
          busyLabel="Deleting..."
          isBusy={isConfirmBusy}
          error={confirmError}
          onConfirm={() =>
            void confirmAction(dialog.user, async () => {
              await deleteUser(dialog.user.id);
              return `${SUCCESS_MESSAGES.userDeleted}: ${fullName(dialog.user)}`;
            }, ERROR_MESSAGES.deleteUser)
          }
        >
          <p>
            Delete <strong>{fullName(dialog.user)}</strong> ({dialog.user.email})? This cannot be undone. To keep their history, deactivate the account instead.
          </p>
        </ConfirmDialog>
      ) : null}

      {dialog?.kind === 'deactivate' ? (
        <ConfirmDialog
          title="Deactivate user"
          keepLabel="Keep user active"
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          confirmLabel="Deactivate"
          busyLabel="Deactivating..."
          isBusy={isConfirmBusy}
          error={confirmError}
          onConfirm={() =>
            void confirmAction(dialog.user, async () => {
              await updateUser(dialog.user.id, { isActive: false });
              return `${fullName(dialog.user)} was deactivated.`;
            }, ERROR_MESSAGES.updateUser)
          }
        >
          <p>
            Deactivate <strong>{fullName(dialog.user)}</strong>? They are signed out everywhere and cannot sign in until an admin activates the account again.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

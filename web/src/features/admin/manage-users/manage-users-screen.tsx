import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { MoreVertical, UserPlus } from 'lucide-react';
import {
  ADMIN_TEXTS,
  canManageRole,
  DEFAULT_LIMIT,
  DEFAULT_SORTS,
  ERROR_MESSAGES,
  NAV_LABELS,
  ROLE_LABELS,
  ROLES,
  SUCCESS_MESSAGES,
  USER_SORT_KEYS,
  userExportFileName,
  type BulkResult,
  type Role,
  type User,
} from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { useCurrentUser } from '../../../lib/current-user.tsx';
import { formatDate } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { getAllCarParks } from '../api/car-parks.ts';
import { sendOnboardingEmail } from '../api/onboarding.ts';
import {
  bulkSetUsersActive,
  deleteUser,
  exportUsersCsv,
  getUsers,
  getUserSelection,
  updateUser,
  USER_BULK_FAILED,
  USER_EXPORT_FAILED,
  USER_SELECTION_FAILED,
  type UserFilters,
} from '../api/users.ts';
import { AdminFilters } from '../components/admin-filters.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { BulkResults } from '../components/bulk-results.tsx';
import { ActiveChip, RoleChip } from '../components/chips.tsx';
import { ConfirmDialog } from '../../../lib/confirm-dialog.tsx';
import { DismissibleAlert } from '../components/dismissible-alert.tsx';
import { useAdminActions } from '../components/use-admin-actions.ts';
import { ExportButton } from '../components/export-button.tsx';
import { SelectionBar } from '../components/selection-bar.tsx';
import { ALL, useListParams } from '../components/use-list-params.ts';
import { useRowSelection } from '../components/use-row-selection.ts';
import { UserCarParksDialog } from './user-car-parks-dialog.tsx';
import { UserFormDialog } from './user-form-dialog.tsx';
import '../admin.css';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; user: User }
  | { kind: 'car-parks'; user: User }
  | { kind: 'delete'; user: User }
  | { kind: 'deactivate'; user: User }
  | { kind: 'bulk-deactivate' }
  | null;

const ROLE_FILTER_OPTIONS = [{ id: ALL, label: 'All roles' }, ...ROLES.map((r) => ({ id: r, label: ROLE_LABELS[r] }))];
const STATUS_FILTER_OPTIONS = [
  { id: ALL, label: 'All users' },
  { id: 'true', label: ADMIN_TEXTS.active },
  { id: 'false', label: ADMIN_TEXTS.inactive },
];

const fullName = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;
const plural = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'user' : 'users'}`;

export function ManageUsersScreen() {
  const me = useCurrentUser();
  const actorRole: Role = me?.role ?? 'USER';
  const list = useListParams(USER_SORT_KEYS, DEFAULT_SORTS.users);
  const role = list.get('role');
  const status = list.get('isActive');
  const [search, setSearch] = useState(list.get('search') ?? '');
  const debouncedSearch = useDebouncedValue(search, 300);
  const filters: UserFilters = {
    search: debouncedSearch,
    role: (ROLES as readonly string[]).includes(role ?? '') ? (role as Role) : null,
    isActive: status === null ? null : status === 'true',
    sort: list.sort.sort,
    order: list.sort.order,
  };
  const users = useAsync(
    () => getUsers({ page: list.page, limit: DEFAULT_LIMIT, ...filters }),
    [list.page, JSON.stringify(filters)],
    ERROR_MESSAGES.fetchUsers,
  );
  const carParks = useAsync(getAllCarParks, [], ERROR_MESSAGES.fetchCarParks);
  const selection = useRowSelection<{ isActive: boolean }>(users.data?.users ?? [], (user) => ({ isActive: user.isActive }));
  // The heading names the action: 'Deactivation results' after a deactivation.
  const [results, setResults] = useState<{ isActive: boolean; items: BulkResult[] } | null>(null);
  const {
    dialog,
    setDialog,
    notice,
    setNotice,
    busyId: busyUserId,
    runRowAction,
    confirm: confirmAction,
    closeDialog,
    confirmProps,
  } = useAdminActions<NonNullable<Dialog>>(users.reload);

  function filter(changes: Record<string, string | null>) {
    selection.clear();
    list.update(changes);
  }

  /** Bulk activate / deactivate: each user checked on its own, results listed. */
  async function setSelectedActive(isActive: boolean): Promise<string> {
    const answer = await bulkSetUsersActive([...selection.selected.keys()], isActive);
    const failed = answer.results.filter((result) => !result.success).length;
    setResults({ isActive, items: answer.results });
    selection.clear();
    const done = `${plural(answer.results.length - failed)} ${isActive ? 'activated' : 'deactivated'}`;
    return failed ? `${done}; ${plural(failed)} could not be changed (see the results below).` : `${done}.`;
  }

  /**
   * Undo of the last bulk change while this screen is open: the users it changed go back (a
   * deactivation's sign-outs stay: they sign in again). Manage PCNs' bulk status change has its
   * own Undo, checked by the server against each PCN's history (BulkStatusUndo).
   */
  async function undoLastBulk(): Promise<string> {
    if (!results) return '';
    const changed = results.items.filter((result) => result.success).map((result) => result.id);
    const answer = await bulkSetUsersActive(changed, !results.isActive);
    setResults(null);
    const failed = answer.results.filter((result) => !result.success).length;
    const done = `Undone: ${plural(answer.results.length - failed)} ${results.isActive ? 'deactivated' : 'activated'} again`;
    return failed ? `${done}; ${plural(failed)} could not be changed back.` : `${done}.`;
  }

  async function runBulk(action: () => Promise<string>) {
    setNotice(null);
    try {
      setNotice({ tone: 'success', text: await action() });
    } catch (error) {
      setNotice({ tone: 'error', text: toApiError(error, USER_BULK_FAILED).message });
    } finally {
      users.reload();
    }
  }

  function handleAction(user: User, key: string) {
    if (key === 'edit') setDialog({ kind: 'edit', user });
    else if (key === 'car-parks') setDialog({ kind: 'car-parks', user });
    else if (key === 'delete') setDialog({ kind: 'delete', user });
    else if (key === 'deactivate') setDialog({ kind: 'deactivate', user });
    else if (key === 'activate') {
      void runRowAction(
        user.id,
        async () => {
          await updateUser(user.id, { isActive: true });
          return `${fullName(user)} is active again.`;
        },
        ERROR_MESSAGES.updateUser,
      );
    } else if (key === 'onboarding') {
      void runRowAction(
        user.id,
        async () => {
          await sendOnboardingEmail(user.id);
          return `${SUCCESS_MESSAGES.onboardingEmailSent} to ${user.email}.`;
        },
        ERROR_MESSAGES.sendOnboardingEmail,
      );
    }
  }

  const columns: Array<AdminColumn<User>> = [
    { id: 'name', label: ADMIN_TEXTS.name, sortKey: 'name', isRowHeader: true, render: fullName },
    { id: 'email', label: ADMIN_TEXTS.email, sortKey: 'email', render: (user) => user.email },
    { id: 'role', label: ADMIN_TEXTS.role, sortKey: 'role', render: (user) => <RoleChip role={user.role} /> },
    { id: 'status', label: ADMIN_TEXTS.status, sortKey: 'isActive', render: (user) => <ActiveChip isActive={user.isActive} /> },
    {
      id: 'carParks',
      label: 'Car parks',
      isWide: true,
      render: (user) => (user.carParks?.length ? user.carParks.map((p) => p.name).join(', ') : <span className="muted">None</span>),
    },
    { id: 'created', label: ADMIN_TEXTS.created, sortKey: 'created', isFigure: true, render: (user) => formatDate(user.createdAt) },
    {
      id: 'actions',
      label: ADMIN_TEXTS.actions,
      isActions: true,
      render: (user) => {
        const isSelf = user.id === me?.id;
        if (!canManageRole(actorRole, user.role)) return <span className="muted">Super admin only</span>;
        return (
          <MenuTrigger>
            <AriaButton className="button button--icon" aria-label={`Actions for ${fullName(user)}`} isDisabled={busyUserId === user.id}>
              <MoreVertical aria-hidden="true" size={20} />
            </AriaButton>
            <Popover placement="bottom end" className="menu-popover">
              <Menu className="menu" aria-label={`Actions for ${fullName(user)}`} onAction={(key) => handleAction(user, String(key))}>
                <MenuItem id="edit" className="menu__item">
                  Edit
                </MenuItem>
                <MenuItem id="car-parks" className="menu__item">
                  Assign car parks
                </MenuItem>
                {user.isActive ? (
                  <MenuItem id="onboarding" className="menu__item">
                    Send onboarding email
                  </MenuItem>
                ) : null}
                {isSelf ? null : user.isActive ? (
                  <MenuItem id="deactivate" className="menu__item">
                    Deactivate
                  </MenuItem>
                ) : (
                  <MenuItem id="activate" className="menu__item">
                    Activate
                  </MenuItem>
                )}
                {isSelf ? null : (
                  <MenuItem id="delete" className="menu__item">
                    Delete
                  </MenuItem>
                )}
              </Menu>
            </Popover>
          </MenuTrigger>
        );
      },
    },
  ];

  const selected = [...selection.selected.values()];
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.manageUsers}</PageHeading>
        <ExportButton
          load={() => exportUsersCsv(filters)}
          fileName={(now) => userExportFileName(now, filters)}
          failedMessage={USER_EXPORT_FAILED}
        />
        <Button onPress={() => setDialog({ kind: 'create' })}>
          <UserPlus aria-hidden="true" size={18} />
          Create user
        </Button>
      </div>

      <AdminFilters
        label="Filter users"
        activeCount={[role, status].filter(Boolean).length}
        search={{
          value: search,
          placeholder: 'Name or email',
          onChange: (value) => {
            setSearch(value);
            filter({ search: value });
          },
        }}
      >
        <SelectField
          label={ADMIN_TEXTS.role}
          options={ROLE_FILTER_OPTIONS}
          value={filters.role ?? ALL}
          onChange={(v) => filter({ role: v })}
        />
        <SelectField
          label={ADMIN_TEXTS.status}
          options={STATUS_FILTER_OPTIONS}
          value={status ?? ALL}
          onChange={(v) => filter({ isActive: v })}
        />
      </AdminFilters>

      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />
      <SelectionBar
        selectedCount={selection.selected.size}
        total={users.data?.pagination.total ?? 0}
        noun={{ one: 'user', many: 'users' }}
        failedMessage={USER_SELECTION_FAILED}
        onSelectAllMatching={async () => selection.selectAll((await getUserSelection(filters)).items)}
        onClear={selection.clear}
      >
        <Button
          variant="secondary"
          isDisabled={!selected.some((user) => !user.isActive)}
          onPress={() => void runBulk(() => setSelectedActive(true))}
        >
          Activate
        </Button>
        <Button
          variant="secondary"
          isDisabled={!selected.some((user) => user.isActive)}
          onPress={() => setDialog({ kind: 'bulk-deactivate' })}
        >
          Deactivate…
        </Button>
      </SelectionBar>

      <AdminTable
        label="Users"
        columns={columns}
        rows={users.data?.users}
        isLoading={users.isLoading}
        error={users.error}
        emptyText="No users match these filters."
        rowLabel={fullName}
        sort={list.sort}
        onSort={list.setSort}
        selection={{
          keys: selection.pageKeys,
          onChange: selection.onSelectionChange,
          selectAllLabel: 'Select all users on this page',
          rowLabel: fullName,
        }}
        pagination={users.data?.pagination}
        onPageChange={list.setPage}
        dependencies={[busyUserId, me?.id]}
      />
      {results ? (
        <BulkResults
          title={results.isActive ? 'Activation results' : 'Deactivation results'}
          itemHeading={ADMIN_TEXTS.user}
          results={results.items}
          actions={
            results.items.some((result) => result.success) ? (
              <Button variant="secondary" onPress={() => void runBulk(undoLastBulk)}>
                {results.isActive ? 'Undo activation' : 'Undo deactivation'}
              </Button>
            ) : null
          }
        />
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
            setNotice({
              tone: 'success',
              text: isNew
                ? `${fullName(saved)} was created. Send the onboarding email so they can sign in.`
                : `${fullName(saved)} was updated.`,
            });
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
          cancelLabel="Keep user"
          {...confirmProps}
          confirmLabel="Delete user"
          busyLabel="Deleting..."
          onConfirm={() =>
            void confirmAction(async () => {
              await deleteUser(dialog.user.id);
              return `${SUCCESS_MESSAGES.userDeleted}: ${fullName(dialog.user)}`;
            }, ERROR_MESSAGES.deleteUser)
          }
          message={
            <>
              <p>
                Delete <strong>{fullName(dialog.user)}</strong> ({dialog.user.email})? This cannot be undone. To keep their history,
                deactivate the account instead.
              </p>
            </>
          }
        />
      ) : null}

      {dialog?.kind === 'deactivate' ? (
        <ConfirmDialog
          title="Deactivate user"
          cancelLabel="Keep user active"
          {...confirmProps}
          confirmLabel="Deactivate"
          busyLabel="Deactivating..."
          onConfirm={() =>
            void confirmAction(async () => {
              await updateUser(dialog.user.id, { isActive: false });
              return `${fullName(dialog.user)} was deactivated.`;
            }, ERROR_MESSAGES.updateUser)
          }
          message={
            <>
              <p>
                Deactivate <strong>{fullName(dialog.user)}</strong>? They are signed out everywhere and cannot sign in until an admin
                activates the account again.
              </p>
            </>
          }
        />
      ) : null}

      {dialog?.kind === 'bulk-deactivate' ? (
        <ConfirmDialog
          title={`Deactivate ${plural(selection.selected.size)}?`}
          cancelLabel="Keep them active"
          {...confirmProps}
          confirmLabel={`Deactivate ${plural(selection.selected.size)}`}
          busyLabel="Deactivating..."
          onConfirm={() => void confirmAction(() => setSelectedActive(false), USER_BULK_FAILED)}
          message={
            <>
              <p>
                They are signed out everywhere and cannot sign in until an admin activates them again. You cannot deactivate your own
                account.
              </p>
            </>
          }
        />
      ) : null}
    </div>
  );
}

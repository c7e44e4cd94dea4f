import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { MoreVertical, Plus } from 'lucide-react';
import {
  ADMIN_TEXTS,
  CAR_PARK_SORT_KEYS,
  DEFAULT_LIMIT,
  DEFAULT_SORTS,
  ERROR_MESSAGES,
  JURISDICTION_LABELS,
  NAV_LABELS,
  needsMinimumsOverrideReason,
  SERVER_MESSAGES,
  SUCCESS_MESSAGES,
  type CarPark,
} from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../lib/button.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { deleteCarPark, getCarParkPage, updateCarPark, type CarParkFilters } from '../api/car-parks.ts';
import { AdminFilters } from '../components/admin-filters.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { ActiveChip } from '../components/chips.tsx';
import { ConfirmDialog } from '../../../lib/confirm-dialog.tsx';
import { DismissibleAlert } from '../components/dismissible-alert.tsx';
import { useAdminActions } from '../components/use-admin-actions.ts';
import { ALL, useListParams } from '../components/use-list-params.ts';
import { CarParkFormDialog } from './car-park-form-dialog.tsx';
import { CarParkTermsHistoryDialog } from './car-park-terms-history-dialog.tsx';
import { chargeLines } from './car-park-terms.ts';
import { CarParkUsersDialog } from './car-park-users-dialog.tsx';
import '../admin.css';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; carPark: CarPark }
  | { kind: 'users'; carPark: CarPark }
  | { kind: 'delete'; carPark: CarPark }
  | { kind: 'deactivate'; carPark: CarPark }
  | { kind: 'terms'; carPark: CarPark }
  | null;

const STATUS_FILTER_OPTIONS = [
  { id: ALL, label: 'All car parks' },
  { id: 'true', label: ADMIN_TEXTS.active },
  { id: 'false', label: ADMIN_TEXTS.inactive },
];

export function ManageCarParksScreen() {
  const navigate = useNavigate();
  const params = useListParams(CAR_PARK_SORT_KEYS, DEFAULT_SORTS.carParks);
  const status = params.get('isActive');
  const [search, setSearch] = useState(params.get('search') ?? '');
  const debouncedSearch = useDebouncedValue(search, 300);
  const filters: CarParkFilters = {
    search: debouncedSearch,
    isActive: status === null ? null : status === 'true',
    sort: params.sort.sort,
    order: params.sort.order,
  };
  const list = useAsync(
    () => getCarParkPage({ page: params.page, limit: DEFAULT_LIMIT, ...filters }),
    [params.page, JSON.stringify(filters)],
    ERROR_MESSAGES.fetchCarParks,
  );
  /** Set when a delete was refused because the car park has PCNs: deactivating is offered instead. */
  const [hasPcns, setHasPcns] = useState(false);
  const {
    dialog,
    setDialog,
    notice,
    setNotice,
    busyId,
    runRowAction,
    confirm: runConfirm,
    closeDialog,
    isConfirmBusy,
    confirmProps,
  } = useAdminActions<NonNullable<Dialog>>(list.reload, { onClose: () => setHasPcns(false) });

  async function confirm(action: () => Promise<string>, fallback: string) {
    const refusal = await runConfirm(action, fallback);
    if (refusal?.status === 409 && refusal.message === SERVER_MESSAGES.carParkHasPcns) setHasPcns(true);
  }

  function activate(carPark: CarPark) {
    void runRowAction(
      carPark.id,
      async () => {
        await updateCarPark(carPark.id, { isActive: true });
        return `${carPark.name} is active again.`;
      },
      ERROR_MESSAGES.updateCarPark,
    );
  }

  function handleAction(carPark: CarPark, key: string) {
    if (key === 'activate') activate(carPark);
    else if (key === 'permits') void navigate(paths.admin.carParkPermits(carPark.id));
    else if (key === 'report') void navigate(paths.admin.carParkReport(carPark.id));
    else setDialog({ kind: key as 'edit' | 'users' | 'terms' | 'delete' | 'deactivate', carPark });
  }

  const deactivate = (carPark: CarPark) => async () => {
    await updateCarPark(carPark.id, { isActive: false });
    return `${carPark.name} was deactivated.`;
  };

  // Eight columns must fit 1366 px beside the navigation: the address goes under the name, and
  // each of charge, land and stay rules is one line with its detail on a second.
  const columns: Array<AdminColumn<CarPark>> = [
    {
      id: 'name',
      label: ADMIN_TEXTS.name,
      sortKey: 'name',
      isRowHeader: true,
      isWide: true,
      render: (carPark) => (
        <>
          {carPark.name}
          <span className="table__secondary">{[carPark.address, carPark.postcode].filter(Boolean).join(', ') || 'No address'}</span>
        </>
      ),
    },
    { id: 'siteCode', label: 'Site code', sortKey: 'siteCode', isFigure: true, render: (carPark) => carPark.siteCode },
    { id: 'status', label: ADMIN_TEXTS.status, sortKey: 'isActive', render: (carPark) => <ActiveChip isActive={carPark.isActive} /> },
    {
      id: 'charge',
      label: 'Charge',
      render: (carPark) => {
        const [charge, discount] = chargeLines(carPark);
        return (
          <>
            {charge}
            <span className="table__secondary">{discount}</span>
          </>
        );
      },
    },
    {
      id: 'land',
      label: 'Where the land is',
      render: (carPark) => (
        <>
          {JURISDICTION_LABELS[carPark.jurisdiction]}
          <span className="table__secondary">{carPark.relevantLand ? 'Relevant land' : 'Not relevant land'}</span>
        </>
      ),
    },
    {
      id: 'stay',
      label: 'Stay rules',
      isWide: true,
      render: (carPark) => (
        <>
          {carPark.considerationMinutes} min consideration + {carPark.graceMinutes} min grace
          <span className="table__secondary">
            {carPark.stayAppliesByDefault ? 'Stay applies by default' : 'Stay only when the officer says so'}
          </span>
          {needsMinimumsOverrideReason(carPark) ? (
            <span className="table__secondary">
              {carPark.minimumsOverrideReason
                ? `Shorter than the Single Code's minimums: ${carPark.minimumsOverrideReason}`
                : "Shorter than the Single Code's minimums, with no reason given: editing asks for one"}
            </span>
          ) : null}
        </>
      ),
    },
    {
      id: 'users',
      label: 'Assigned users',
      isWide: true,
      render: (carPark) =>
        carPark.assignedUsers?.length ? (
          carPark.assignedUsers.map((u) => `${u.firstName} ${u.lastName}`).join(', ')
        ) : (
          <span className="muted">None</span>
        ),
    },
    {
      id: 'actions',
      label: ADMIN_TEXTS.actions,
      isActions: true,
      render: (carPark) => (
        <MenuTrigger>
          <AriaButton className="button button--icon" aria-label={`Actions for ${carPark.name}`} isDisabled={busyId === carPark.id}>
            <MoreVertical aria-hidden="true" size={20} />
          </AriaButton>
          <Popover placement="bottom end" className="menu-popover">
            <Menu className="menu" aria-label={`Actions for ${carPark.name}`} onAction={(key) => handleAction(carPark, String(key))}>
              <MenuItem id="edit" className="menu__item">
                Edit
              </MenuItem>
              <MenuItem id="users" className="menu__item">
                Assign users
              </MenuItem>
              <MenuItem id="terms" className="menu__item">
                Terms history
              </MenuItem>
              <MenuItem id="permits" className="menu__item">
                Permits
              </MenuItem>
              <MenuItem id="report" className="menu__item">
                Monthly report
              </MenuItem>
              {carPark.isActive ? (
                <MenuItem id="deactivate" className="menu__item">
                  Deactivate
                </MenuItem>
              ) : (
                <MenuItem id="activate" className="menu__item">
                  Activate
                </MenuItem>
              )}
              <MenuItem id="delete" className="menu__item">
                Delete
              </MenuItem>
            </Menu>
          </Popover>
        </MenuTrigger>
      ),
    },
  ];

  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.manageCarParks}</PageHeading>
        <Button onPress={() => setDialog({ kind: 'create' })}>
          <Plus aria-hidden="true" size={18} />
          Create car park
        </Button>
      </div>

      <AdminFilters
        label="Filter car parks"
        activeCount={status === null ? 0 : 1}
        search={{
          value: search,
          placeholder: 'Name, site code, address or postcode',
          onChange: (value) => {
            setSearch(value);
            params.update({ search: value });
          },
        }}
      >
        <SelectField
          label={ADMIN_TEXTS.status}
          options={STATUS_FILTER_OPTIONS}
          value={status ?? ALL}
          onChange={(v) => params.update({ isActive: v })}
        />
      </AdminFilters>

      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />
      <AdminTable
        label="Car parks"
        columns={columns}
        rows={list.data?.carParks}
        isLoading={list.isLoading}
        error={list.error}
        emptyText="No car parks match these filters."
        rowLabel={(carPark) => carPark.name}
        sort={params.sort}
        onSort={params.setSort}
        pagination={list.data?.pagination}
        onPageChange={params.setPage}
        dependencies={[busyId]}
      />

      {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
        <CarParkFormDialog
          carPark={dialog.kind === 'edit' ? dialog.carPark : null}
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          onSaved={(saved, isNew) => {
            closeDialog();
            setNotice({ tone: 'success', text: isNew ? `${saved.name} was created.` : `${saved.name} was updated.` });
            list.reload();
          }}
        />
      ) : null}

      {dialog?.kind === 'users' ? (
        <CarParkUsersDialog
          carPark={dialog.carPark}
          isOpen
          onOpenChange={(open) => {
            if (!open) {
              closeDialog();
              list.reload();
            }
          }}
          onChanged={() => undefined}
        />
      ) : null}

      {dialog?.kind === 'terms' ? <CarParkTermsHistoryDialog carPark={dialog.carPark} onClose={closeDialog} /> : null}

      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title="Delete car park"
          cancelLabel="Keep car park"
          {...confirmProps}
          confirmLabel="Delete car park"
          busyLabel="Deleting..."
          onConfirm={() =>
            void confirm(async () => {
              await deleteCarPark(dialog.carPark.id);
              return `${SUCCESS_MESSAGES.carParkDeleted}: ${dialog.carPark.name}`;
            }, ERROR_MESSAGES.deleteCarPark)
          }
          extraAction={
            hasPcns && dialog.carPark.isActive ? (
              <Button
                variant="secondary"
                isDisabled={isConfirmBusy}
                onPress={() => void confirm(deactivate(dialog.carPark), ERROR_MESSAGES.updateCarPark)}
              >
                Deactivate instead
              </Button>
            ) : null
          }
          message={
            <p>
              Delete <strong>{dialog.carPark.name}</strong> ({dialog.carPark.siteCode})? This cannot be undone. A car park that has PCNs
              cannot be deleted; deactivate it instead.
            </p>
          }
        />
      ) : null}

      {dialog?.kind === 'deactivate' ? (
        <ConfirmDialog
          title="Deactivate car park"
          cancelLabel="Keep car park active"
          {...confirmProps}
          confirmLabel="Deactivate"
          busyLabel="Deactivating..."
          onConfirm={() => void confirm(deactivate(dialog.carPark), ERROR_MESSAGES.updateCarPark)}
          message={
            <p>
              Deactivate <strong>{dialog.carPark.name}</strong>? Officers can no longer choose it for new PCNs; its PCNs stay as they are.
            </p>
          }
        />
      ) : null}
    </div>
  );
}

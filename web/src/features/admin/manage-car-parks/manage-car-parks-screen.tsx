import { useState } from 'react';
import { Button as AriaButton, Cell, Column, Input, Label, Menu, MenuItem, MenuTrigger, Popover, Row, SearchField, Table, TableBody, TableHeader } from 'react-aria-components';
import { MoreVertical, Plus, Search } from 'lucide-react';
import { ADMIN_TEXTS, DEFAULT_LIMIT, ERROR_MESSAGES, NAV_LABELS, SERVER_MESSAGES, SUCCESS_MESSAGES, type CarPark } from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { deleteCarPark, getCarParkPage, updateCarPark } from '../api/car-parks.ts';
import { ActiveChip } from '../components/chips.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DismissibleAlert, type Notice } from '../components/dismissible-alert.tsx';
import { PaginationBar } from '../components/pagination-bar.tsx';
import { CarParkFormDialog } from './car-park-form-dialog.tsx';
import { CarParkUsersDialog } from './car-park-users-dialog.tsx';
import '../admin.css';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; carPark: CarPark }
  | { kind: 'users'; carPark: CarPark }
  | { kind: 'delete'; carPark: CarPark }
  | { kind: 'deactivate'; carPark: CarPark }
  | null;

const ALL = 'all';
const STATUS_FILTER_OPTIONS = [
  { id: ALL, label: 'All car parks' },
  { id: 'true', label: ADMIN_TEXTS.active },
  { id: 'false', label: ADMIN_TEXTS.inactive },
];

export function ManageCarParksScreen() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState(ALL);
  const [page, setPage] = useState(1);
  const debouncedSearch = useDebouncedValue(search, 300);
  const list = useAsync(
    () => getCarParkPage({ page, limit: DEFAULT_LIMIT, search: debouncedSearch, isActive: status === ALL ? null : status === 'true' }),
    [page, debouncedSearch, status],
    ERROR_MESSAGES.fetchCarParks,
  );
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [isConfirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  /** Set when a delete was refused because the car park has PCNs: deactivating is offered instead. */
  const [hasPcns, setHasPcns] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);

  function closeDialog() {
    setDialog(null);
    setConfirmError(null);
    setHasPcns(false);
  }

  async function confirm(action: () => Promise<string>, fallback: string) {
    setConfirmBusy(true);
    setConfirmError(null);
    try {
      const text = await action();
      closeDialog();
      setNotice({ tone: 'success', text });
      list.reload();
    } catch (error) {
      const apiError = toApiError(error, fallback);
      if (apiError.status === 409 && apiError.message === SERVER_MESSAGES.carParkHasPcns) setHasPcns(true);
      setConfirmError(apiError.message);
    } finally {
      setConfirmBusy(false);
    }
  }

  async function activate(carPark: CarPark) {
    setBusyId(carPark.id);
    try {
      await updateCarPark(carPark.id, { isActive: true });
      setNotice({ tone: 'success', text: `${carPark.name} is active again.` });
      list.reload();
    } catch (error) {
      setNotice({ tone: 'error', text: toApiError(error, ERROR_MESSAGES.updateCarPark).message });
    } finally {
      setBusyId(null);
    }
  }

  function handleAction(carPark: CarPark, key: string) {
    if (key === 'activate') void activate(carPark);
    else setDialog({ kind: key as 'edit' | 'users' | 'delete' | 'deactivate', carPark });
  }

  const deactivate = (carPark: CarPark) => async () => {
    await updateCarPark(carPark.id, { isActive: false });
    return `${carPark.name} was deactivated.`;
  };

  const data = list.data;
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.manageCarParks}</PageHeading>
        <Button onPress={() => setDialog({ kind: 'create' })}>
          <Plus aria-hidden="true" size={18} />
          Create car park
        </Button>
      </div>

      <div className="admin-filters" role="search" aria-label="Filter car parks">
        <SearchField className="field admin-filters__search" value={search} onChange={(v) => { setSearch(v); setPage(1); }}>
          <Label className="field__label">Search</Label>
          <div className="search-input">
            <Search aria-hidden="true" size={18} className="search-input__icon" />
            <Input className="field__input search-input__field" placeholder="Name, site code, address or postcode" />
          </div>
        </SearchField>
        <SelectField label={ADMIN_TEXTS.status} options={STATUS_FILTER_OPTIONS} value={status} onChange={(v) => { setStatus(v ?? ALL); setPage(1); }} />
      </div>

      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />
      {list.error ? <Alert>{list.error.message}</Alert> : null}

      {!data && list.isLoading ? (
        <Spinner />
      ) : data ? (
        <>
          <div className="admin-table-scroll" aria-busy={list.isLoading}>
            <Table aria-label="Car parks" className="table">
              <TableHeader>
                <Column isRowHeader>{ADMIN_TEXTS.name}</Column>
                <Column>Site code</Column>
                <Column>Address</Column>
                <Column>{ADMIN_TEXTS.status}</Column>
                <Column>Stay rules</Column>
                <Column>Assigned users</Column>
                <Column>{ADMIN_TEXTS.actions}</Column>
              </TableHeader>
              <TableBody items={data.carParks} dependencies={[busyId]} renderEmptyState={() => <p className="table__empty">No car parks match these filters.</p>}>
                {(carPark) => (
                  <Row id={carPark.id} className="table__row" textValue={carPark.name}>
                    <Cell>{carPark.name}</Cell>
                    <Cell>{carPark.siteCode}</Cell>
                    <Cell className="table__wrap">{[carPark.address, carPark.postcode].filter(Boolean).join(', ') || <span className="muted">—</span>}</Cell>
                    <Cell>
                      <ActiveChip isActive={carPark.isActive} />
                    </Cell>
                    <Cell className="table__wrap">
                      {carPark.considerationMinutes} min consideration + {carPark.graceMinutes} min grace
                      <span className="table__secondary">{carPark.stayAppliesByDefault ? 'Stay applies by default' : 'Stay only when the officer says so'}</span>
                    </Cell>
                    <Cell className="table__wrap">
                      {carPark.assignedUsers?.length ? carPark.assignedUsers.map((u) => `${u.firstName} ${u.lastName}`).join(', ') : <span className="muted">None</span>}
                    </Cell>
                    <Cell>
                      <MenuTrigger>
                        <AriaButton className="button button--icon" aria-label={`Actions for ${carPark.name}`} isDisabled={busyId === carPark.id}>
                          <MoreVertical aria-hidden="true" size={20} />
                        </AriaButton>
                        <Popover placement="bottom end" className="menu-popover">
                          <Menu className="menu" aria-label={`Actions for ${carPark.name}`} onAction={(key) => handleAction(carPark, String(key))}>
                            <MenuItem id="edit" className="menu__item">Edit</MenuItem>
                            <MenuItem id="users" className="menu__item">Assign users</MenuItem>
                            {carPark.isActive ? (
                              <MenuItem id="deactivate" className="menu__item">Deactivate</MenuItem>
                            ) : (
                              <MenuItem id="activate" className="menu__item">Activate</MenuItem>
                            )}
                            <MenuItem id="delete" className="menu__item">Delete</MenuItem>
                          </Menu>
                        </Popover>
                      </MenuTrigger>
                    </Cell>
                  </Row>
                )}
              </TableBody>
            </Table>
          </div>
          <PaginationBar pagination={data.pagination} onPageChange={setPage} label="Car parks" />
        </>
      ) : null}

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

      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title="Delete car park"
          keepLabel="Keep car park"
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          confirmLabel="Delete car park"
          busyLabel="Deleting..."
          isBusy={isConfirmBusy}
          error={confirmError}
          onConfirm={() =>
            void confirm(async () => {
              await deleteCarPark(dialog.carPark.id);
              return `${SUCCESS_MESSAGES.carParkDeleted}: ${dialog.carPark.name}`;
            }, ERROR_MESSAGES.deleteCarPark)
          }
          extraAction={
            hasPcns && dialog.carPark.isActive ? (
              <Button variant="secondary" isDisabled={isConfirmBusy} onPress={() => void confirm(deactivate(dialog.carPark), ERROR_MESSAGES.updateCarPark)}>
                Deactivate instead
              </Button>
            ) : null
          }
        >
          <p>
            Delete <strong>{dialog.carPark.name}</strong> ({dialog.carPark.siteCode})? This cannot be undone. A car park that has PCNs cannot be deleted; deactivate it instead.
          </p>
        </ConfirmDialog>
      ) : null}

      {dialog?.kind === 'deactivate' ? (
        <ConfirmDialog
          title="Deactivate car park"
          keepLabel="Keep car park active"
          isOpen
          onOpenChange={(open) => !open && closeDialog()}
          confirmLabel="Deactivate"
          busyLabel="Deactivating..."
          isBusy={isConfirmBusy}
          error={confirmError}
          onConfirm={() => void confirm(deactivate(dialog.carPark), ERROR_MESSAGES.updateCarPark)}
        >
          <p>
            Deactivate <strong>{dialog.carPark.name}</strong>? Officers can no longer choose it for new PCNs; its PCNs stay as they are.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

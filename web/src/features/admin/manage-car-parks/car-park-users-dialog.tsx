import { useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { Search, UserMinus, UserPlus } from 'lucide-react';
import { ERROR_MESSAGES, type CarPark } from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { assignUserToCarPark, unassignUserFromCarPark } from '../api/car-parks.ts';
import { getUsers } from '../api/users.ts';
import { RoleChip } from '../components/chips.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';

/** Who patrols a car park: unassign from the list, or find an active user and assign them. */
export function CarParkUsersDialog({
  carPark,
  isOpen,
  onOpenChange,
  onChanged,
}: {
  carPark: CarPark;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onChanged: (carPark: CarPark) => void;
}) {
  const [current, setCurrent] = useState(carPark);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 300);
  const candidates = useAsync(
    () => getUsers({ page: 1, limit: 8, search: debounced, isActive: true }),
    [debounced],
    ERROR_MESSAGES.fetchUsers,
  );
  const [busyUserId, setBusyUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const assigned = current.assignedUsers ?? [];
  const assignedIds = new Set(assigned.map((u) => u.id));

  async function change(userId: string, name: string, isAssign: boolean) {
    setBusyUserId(userId);
    setError(null);
    try {
      const updated = isAssign ? await assignUserToCarPark(current.id, userId) : await unassignUserFromCarPark(current.id, userId);
      setCurrent(updated);
      onChanged(updated);
      setStatus(isAssign ? `${name} assigned to ${current.name}.` : `${name} unassigned from ${current.name}.`);
    } catch (e) {
      setError(toApiError(e, isAssign ? ERROR_MESSAGES.assignUser : ERROR_MESSAGES.unassignUser).message);
    } finally {
      setBusyUserId(null);
    }
  }

  return (
    <ModalDialog title={`Users of ${current.name}`} isOpen={isOpen} onClose={() => onOpenChange(false)} size="large">
      {error ? <Alert>{error}</Alert> : null}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <section aria-labelledby="assigned-users-title" className="modal__body">
        <h3 id="assigned-users-title">Assigned users ({assigned.length})</h3>
        {assigned.length === 0 ? (
          <p className="muted">Nobody is assigned to this car park yet.</p>
        ) : (
          <ul className="assigned-list">
            {assigned.map((user) => {
              const name = `${user.firstName} ${user.lastName}`;
              return (
                <li key={user.id}>
                  <span>
                    {name} <span className="table__secondary">{user.email}</span>
                  </span>
                  <Button
                    variant="secondary"
                    onPress={() => void change(user.id, name, false)}
                    isDisabled={busyUserId !== null}
                    aria-label={`Unassign ${name}`}
                  >
                    <UserMinus aria-hidden="true" size={18} />
                    Unassign
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="add-users-title" className="modal__body">
        <h3 id="add-users-title">Assign a user</h3>
        <SearchField className="field" value={search} onChange={setSearch}>
          <Label className="field__label">Find a user</Label>
          <div className="search-input">
            <Search aria-hidden="true" size={18} className="search-input__icon" />
            <Input className="field__input search-input__field" placeholder="Name or email" />
          </div>
        </SearchField>
        {candidates.error ? <Alert>{candidates.error.message}</Alert> : null}
        <ul className="assigned-list" aria-busy={candidates.isLoading}>
          {(candidates.data?.users ?? [])
            .filter((u) => !assignedIds.has(u.id))
            .map((user) => {
              const name = `${user.firstName} ${user.lastName}`;
              return (
                <li key={user.id}>
                  <span>
                    {name} <RoleChip role={user.role} /> <span className="table__secondary">{user.email}</span>
                  </span>
                  <Button
                    variant="secondary"
                    onPress={() => void change(user.id, name, true)}
                    isDisabled={busyUserId !== null}
                    aria-label={`Assign ${name}`}
                  >
                    <UserPlus aria-hidden="true" size={18} />
                    Assign
                  </Button>
                </li>
              );
            })}
        </ul>
      </section>
      <div className="modal__actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          Done
        </Button>
      </div>
    </ModalDialog>
  );
}

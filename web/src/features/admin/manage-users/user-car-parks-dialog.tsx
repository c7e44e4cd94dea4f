import { useState } from 'react';
import { ADMIN_TEXTS, ERROR_MESSAGES, type CarPark, type User } from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { assignUserToCarPark, unassignUserFromCarPark } from '../api/car-parks.ts';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { CarParkChoices } from './car-park-choices.tsx';

/** Assigns and unassigns a user's car parks: only the changes are sent, one call each. */
export function UserCarParksDialog({
  user,
  carParks,
  isOpen,
  onOpenChange,
  onSaved,
}: {
  user: User;
  carParks: CarPark[];
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onSaved: () => void;
}) {
  const initial = (user.carParks ?? []).map((p) => p.id);
  const [selected, setSelected] = useState<string[]>(initial);
  const [isSaving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save() {
    const toAssign = selected.filter((id) => !initial.includes(id));
    const toUnassign = initial.filter((id) => !selected.includes(id));
    setSaving(true);
    setError(null);
    try {
      for (const id of toAssign) await assignUserToCarPark(id, user.id);
      for (const id of toUnassign) {
        await unassignUserFromCarPark(id, user.id).catch((e: unknown) => {
          throw toApiError(e, ERROR_MESSAGES.unassignUser);
        });
      }
      onSaved();
    } catch (e) {
      setError(toApiError(e, ERROR_MESSAGES.assignUser).message);
    } finally {
      setSaving(false);
    }
  }

  const name = `${user.firstName} ${user.lastName}`;
  return (
    <ModalDialog title={`Car parks for ${name}`} isOpen={isOpen} onClose={() => onOpenChange(false)} isBusy={isSaving}>
      {error ? <Alert>{error}</Alert> : null}
      <CarParkChoices carParks={carParks} value={selected} onChange={setSelected} label="Assigned car parks" isDisabled={isSaving} />
      <div className="modal__actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={isSaving}>
          {ADMIN_TEXTS.cancel}
        </Button>
        <Button onPress={() => void save()} isDisabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save car parks'}
        </Button>
      </div>
    </ModalDialog>
  );
}

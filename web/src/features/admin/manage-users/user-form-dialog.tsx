import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import {
  ADMIN_TEXTS,
  canManageRole,
  createUserInputSchema,
  ERROR_MESSAGES,
  fieldErrors,
  ROLE_LABELS,
  ROLES,
  updateUserInputSchema,
  type CarPark,
  type Role,
  type UpdateUserInput,
  type User,
} from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { createUser, updateUser } from '../api/users.ts';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { CarParkChoices } from './car-park-choices.tsx';

type UserFormDialogProps = {
  /** The account being edited; null creates a new one. */
  user: User | null;
  actorRole: Role;
  isSelf: boolean;
  carParks: CarPark[];
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onSaved: (user: User, isNew: boolean) => void;
};

/**
 * Create (no password: the new user sets one through the onboarding link) or edit name, email
 * and role. Only roles the caller may manage are offered; the server checks the same rule.
 */
export function UserFormDialog({ user, actorRole, isSelf, carParks, isOpen, onOpenChange, onSaved }: UserFormDialogProps) {
  const isNew = user === null;
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [role, setRole] = useState<Role>(user?.role ?? 'USER');
  // One's own email changes only with the current password (the server asks for it too).
  const [currentPassword, setCurrentPassword] = useState('');
  const isOwnEmailChanged = isSelf && user !== null && email.trim().toLowerCase() !== user.email;
  const [carParkIds, setCarParkIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  // Nobody changes their own role (the server refuses it too).
  const roleOptions = ROLES.filter((r) => canManageRole(actorRole, r) || r === role).map((r) => ({ id: r, label: ROLE_LABELS[r] }));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    setServerError(null);
    const fallback = isNew ? ERROR_MESSAGES.createUser : ERROR_MESSAGES.updateUser;
    let save: () => Promise<User>;
    if (isNew) {
      const parsed = createUserInputSchema.safeParse({ firstName, lastName, email, role, carParkIds });
      if (!parsed.success) return setErrors(fieldErrors(parsed.error));
      save = () => createUser(parsed.data);
    } else {
      const parsed = updateUserInputSchema.safeParse({ firstName, lastName, email, role });
      if (!parsed.success) return setErrors(fieldErrors(parsed.error));
      const changes: UpdateUserInput = {};
      if (parsed.data.firstName !== user.firstName) changes.firstName = parsed.data.firstName;
      if (parsed.data.lastName !== user.lastName) changes.lastName = parsed.data.lastName;
      if (parsed.data.email !== user.email) changes.email = parsed.data.email;
      if (parsed.data.role !== user.role) changes.role = parsed.data.role;
      if (changes.email !== undefined && isSelf) changes.currentPassword = currentPassword;
      if (Object.keys(changes).length === 0) return onOpenChange(false);
      save = () => updateUser(user.id, changes);
    }
    setErrors({});
    setSaving(true);
    try {
      onSaved(await save(), isNew);
    } catch (error) {
      const apiError = toApiError(error, fallback);
      setErrors(apiError.fields);
      setServerError(apiError.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <ModalDialog
      title={isNew ? 'Create user' : 'Edit user'}
      isOpen={isOpen}
      onClose={() => onOpenChange(false)}
      isBusy={isSaving}
      size="large"
    >
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <div className="form-grid">
          <TextField
            label="First name"
            name="firstName"
            autoComplete="off"
            value={firstName}
            onChange={setFirstName}
            errorMessage={errors.firstName}
            isRequired
            autoFocus
          />
          <TextField
            label="Last name"
            name="lastName"
            autoComplete="off"
            value={lastName}
            onChange={setLastName}
            errorMessage={errors.lastName}
            isRequired
          />
          <TextField
            label={ADMIN_TEXTS.email}
            name="email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={setEmail}
            errorMessage={errors.email}
            isRequired
          />
          <SelectField
            label={ADMIN_TEXTS.role}
            name="role"
            options={roleOptions}
            value={role}
            onChange={(value) => value && setRole(value as Role)}
            isDisabled={isSelf}
            description={isSelf ? 'You cannot change your own role.' : undefined}
            errorMessage={errors.role}
          />
        </div>
        {isOwnEmailChanged ? (
          <TextField
            label="Your current password"
            description="Changing your own email needs your password."
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={setCurrentPassword}
            errorMessage={errors.currentPassword}
            isRequired
          />
        ) : null}
        {isNew ? (
          <>
            <CarParkChoices carParks={carParks} value={carParkIds} onChange={setCarParkIds} label="Assigned car parks (optional)" />
            <p className="muted">
              No password is set here: send the onboarding email and the user chooses one through their personal link.
            </p>
          </>
        ) : null}
        <div className="modal__actions">
          <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={isSaving}>
            {ADMIN_TEXTS.cancel}
          </Button>
          <Button type="submit" isDisabled={isSaving}>
            {isSaving ? 'Saving...' : isNew ? 'Create user' : 'Save changes'}
          </Button>
        </div>
      </Form>
    </ModalDialog>
  );
}

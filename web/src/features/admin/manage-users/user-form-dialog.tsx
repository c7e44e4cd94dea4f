import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  ADMIN_TEXTS,
  canManageRole,
  createUserInputSchema,
  ERROR_MESSAGES,
  ROLE_LABELS,
  ROLES,
  updateUserInputSchema,
  type CarPark,
  type Role,
  type UpdateUserInput,
  type User,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { createUser, updateUser } from '../api/users.ts';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
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
  const form = useFormSubmit({ fallbackMessage: isNew ? ERROR_MESSAGES.createUser : ERROR_MESSAGES.updateUser });
  const { errors } = form;

  // Nobody changes their own role (the server refuses it too).
  const roleOptions = ROLES.filter((r) => canManageRole(actorRole, r) || r === role).map((r) => ({ id: r, label: ROLE_LABELS[r] }));

  const handleSubmit = isNew
    ? form.handle(
        () => createUserInputSchema.safeParse({ firstName, lastName, email, role, carParkIds }),
        async (input) => onSaved(await createUser(input), true),
      )
    : form.handle(
        () => {
          const parsed = updateUserInputSchema.safeParse({ firstName, lastName, email, role });
          if (!parsed.success) return parsed;
          const changes: UpdateUserInput = {};
          if (parsed.data.firstName !== user.firstName) changes.firstName = parsed.data.firstName;
          if (parsed.data.lastName !== user.lastName) changes.lastName = parsed.data.lastName;
          if (parsed.data.email !== user.email) changes.email = parsed.data.email;
          if (parsed.data.role !== user.role) changes.role = parsed.data.role;
          if (changes.email !== undefined && isSelf) changes.currentPassword = currentPassword;
          return { success: true, data: changes };
        },
        async (changes) => {
          // Nothing changed: nothing to send. Here, not in the check, which also runs as fields are edited.
          if (Object.keys(changes).length === 0) return onOpenChange(false);
          onSaved(await updateUser(user.id, changes), false);
        },
      );

  return (
    <ModalDialog
      title={isNew ? 'Create user' : 'Edit user'}
      isOpen={isOpen}
      onClose={() => onOpenChange(false)}
      isBusy={form.isBusy}
      size="large"
    >
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
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
          <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={form.isBusy}>
            {ADMIN_TEXTS.cancel}
          </Button>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : isNew ? 'Create user' : 'Save changes'}
          </Button>
        </div>
      </Form>
    </ModalDialog>
  );
}

import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  changePasswordFormSchema,
  ERROR_MESSAGES,
  MIN_PASSWORD_LENGTH,
  NAV_LABELS,
  ROLE_LABELS,
  updateProfileInputSchema,
  type User,
} from '@parkpatrol/shared';
import { renameField, useFormSubmit } from '../../lib/use-form-submit.ts';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { Card } from '../../lib/card.tsx';
import { useCurrentUser } from '../../lib/current-user.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { StaleNote } from '../../lib/stale-note.tsx';
import { useCachedAsync } from '../../lib/use-cached-async.ts';
import { replaceSessionUser } from '../auth/adopt-session.ts';
import { getProfile, updateProfile } from './api/profile.ts';

/** Own details, name change and password change (current password asked for when one exists). */
export function ProfileScreen() {
  const sessionUser = useCurrentUser();
  const profile = useCachedAsync('profile', getProfile, [], ERROR_MESSAGES.fetchProfile);
  const user = profile.data ?? sessionUser;

  function handleSaved(updated: User) {
    replaceSessionUser(updated);
    profile.reload();
  }

  return (
    <div className="page">
      <PageHeading>{NAV_LABELS.profile}</PageHeading>
      <StaleNote storedAt={profile.staleSince} />
      {profile.error ? <Alert>{profile.error.message}</Alert> : null}
      {!user ? (
        <Spinner />
      ) : (
        <div className="dashboard-grid">
          <Card title="Your details" titleId="profile-details-title">
            <dl className="details">
              <div>
                <dt>Name</dt>
                <dd>{`${user.firstName} ${user.lastName}`}</dd>
              </div>
              {/* The whole row: in half of it an address wraps mid-word ('admin@example.c om'). */}
              <div className="details__wide">
                <dt>Email</dt>
                <dd>{user.email}</dd>
              </div>
              <div>
                <dt>Role</dt>
                <dd>{ROLE_LABELS[user.role] ?? user.role}</dd>
              </div>
              {user.carParks ? (
                <div className="details__wide">
                  <dt>Car parks</dt>
                  <dd>{user.carParks.length ? user.carParks.map((p) => p.name).join(', ') : 'None assigned'}</dd>
                </div>
              ) : null}
            </dl>
          </Card>
          <div className="page">
            {/* Keyed by the account, not the name: a save must not remount the form and lose its message. */}
            <NameForm key={user.id} user={user} onSaved={handleSaved} />
            <PasswordForm hasPassword={user.hasPassword !== false} onSaved={handleSaved} />
          </div>
        </div>
      )}
    </div>
  );
}

function NameForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [saved, setSaved] = useState(false);
  const form = useFormSubmit({ fallbackMessage: ERROR_MESSAGES.updateProfile });
  const { errors } = form;
  const handleSubmit = form.handle(
    () => {
      setSaved(false);
      return updateProfileInputSchema.pick({ firstName: true, lastName: true }).required().safeParse({ firstName, lastName });
    },
    async (input) => {
      onSaved(await updateProfile(input));
      setSaved(true);
    },
  );

  return (
    <Card title="Name" titleId="profile-name-title">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-labelledby="profile-name-title">
        {form.formError ? <Alert>{form.formError}</Alert> : saved ? <Alert tone="success">Your name was saved.</Alert> : null}
        <TextField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          value={firstName}
          onChange={setFirstName}
          errorMessage={errors.firstName}
          isRequired
        />
        <TextField
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          value={lastName}
          onChange={setLastName}
          errorMessage={errors.lastName}
          isRequired
        />
        <div>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : 'Save name'}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function PasswordForm({ hasPassword, onSaved }: { hasPassword: boolean; onSaved: (user: User) => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [saved, setSaved] = useState(false);
  const form = useFormSubmit({
    fallbackMessage: ERROR_MESSAGES.updateProfile,
    mapErrors: renameField('newPassword', 'password'),
  });
  const { errors } = form;
  const handleSubmit = form.handle(
    () => {
      setSaved(false);
      return changePasswordFormSchema(hasPassword).safeParse({ currentPassword, password, confirmPassword });
    },
    async (input) => {
      const updated = await updateProfile({ newPassword: input.password, ...(hasPassword ? { currentPassword } : {}) });
      setCurrentPassword('');
      setPassword('');
      setConfirmPassword('');
      setSaved(true);
      onSaved(updated);
    },
  );

  return (
    <Card title={hasPassword ? 'Change password' : 'Set a password'} titleId="profile-password-title">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-labelledby="profile-password-title">
        {form.formError ? <Alert>{form.formError}</Alert> : saved ? <Alert tone="success">Your password was changed.</Alert> : null}
        {hasPassword ? (
          <TextField
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={setCurrentPassword}
            errorMessage={errors.currentPassword}
            isRequired
          />
        ) : null}
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          errorMessage={errors.password}
          isRequired
          description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <TextField
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          errorMessage={errors.confirmPassword}
          isRequired
        />
        <div>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : hasPassword ? 'Change password' : 'Set password'}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

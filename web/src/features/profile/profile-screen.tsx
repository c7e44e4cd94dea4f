import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import {
  changePasswordFormSchema,
  ERROR_MESSAGES,
  fieldErrors,
  MIN_PASSWORD_LENGTH,
  NAV_LABELS,
  ROLE_LABELS,
  updateProfileInputSchema,
  type User,
} from '@parkpatrol/shared';
import { toApiError } from '../../lib/api-client.ts';
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
              <div>
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    setMessage(null);
    const parsed = updateProfileInputSchema.pick({ firstName: true, lastName: true }).required().safeParse({ firstName, lastName });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setSaving(true);
    try {
      const updated = await updateProfile(parsed.data);
      setMessage({ tone: 'success', text: 'Your name was saved.' });
      onSaved(updated);
    } catch (error) {
      const apiError = toApiError(error, ERROR_MESSAGES.updateProfile);
      setErrors(apiError.fields);
      setMessage({ tone: 'error', text: apiError.message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title="Name" titleId="profile-name-title">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-labelledby="profile-name-title">
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
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
          <Button type="submit" isDisabled={isSaving}>
            {isSaving ? 'Saving...' : 'Save name'}
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    setMessage(null);
    const parsed = changePasswordFormSchema(hasPassword).safeParse({ currentPassword, password, confirmPassword });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setSaving(true);
    try {
      const updated = await updateProfile({ newPassword: parsed.data.password, ...(hasPassword ? { currentPassword } : {}) });
      setCurrentPassword('');
      setPassword('');
      setConfirmPassword('');
      setMessage({ tone: 'success', text: 'Your password was changed.' });
      onSaved(updated);
    } catch (error) {
      const apiError = toApiError(error, ERROR_MESSAGES.updateProfile);
      setErrors({ ...apiError.fields, ...(apiError.fields.newPassword ? { password: apiError.fields.newPassword } : {}) });
      setMessage({ tone: 'error', text: apiError.message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title={hasPassword ? 'Change password' : 'Set a password'} titleId="profile-password-title">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-labelledby="profile-password-title">
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
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
          <Button type="submit" isDisabled={isSaving}>
            {isSaving ? 'Saving...' : hasPassword ? 'Change password' : 'Set password'}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

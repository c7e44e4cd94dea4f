import { useEffect, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { ERROR_MESSAGES, fieldErrors, MIN_PASSWORD_LENGTH, newPasswordFormSchema, type User } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { toApiError } from '../../lib/api-client.ts';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { replaceSessionUser } from '../auth/adopt-session.ts';
import { setFirstPassword } from './api/set-first-password.ts';

/**
 * The password step of an account opened by an access link. Shown by the link itself and by
 * every signed-in route until the password is set; saving it updates the session's user, which
 * lets the route that was asked for show.
 */
export function SetPasswordForm({ user, onDone }: { user: User; onDone?: () => void }) {
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  useEffect(() => {
    document.title = `Choose your password · ${PRODUCT_TITLE}`;
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    const parsed = newPasswordFormSchema.safeParse({ password, confirmPassword });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setError(null);
    setSaving(true);
    try {
      const updated = await setFirstPassword(parsed.data.password);
      replaceSessionUser(updated);
      onDone?.();
    } catch (e) {
      const apiError = toApiError(e, ERROR_MESSAGES.updateProfile);
      setErrors(apiError.fields.newPassword ? { password: apiError.fields.newPassword } : {});
      setError(apiError.message);
      setSaving(false);
    }
  }

  return (
    <main className="auth-page">
      <div className="auth-card">
        <PageHeading className="auth-card__title">{PRODUCT_TITLE}</PageHeading>
        <h2 className="auth-card__subtitle">Welcome, {user.firstName}! Choose your password</h2>
        <p>You will use it with {user.email} to sign in from now on. The link you opened works only once.</p>
        {error ? <Alert>{error}</Alert> : null}
        <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            errorMessage={errors.password}
            description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            autoFocus
          />
          <TextField
            label="Confirm new password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={setConfirmPassword}
            errorMessage={errors.confirmPassword}
          />
          <Button type="submit" isDisabled={isSaving} className="button--block">
            {isSaving ? 'Saving...' : 'Set password and continue'}
          </Button>
        </Form>
      </div>
    </main>
  );
}

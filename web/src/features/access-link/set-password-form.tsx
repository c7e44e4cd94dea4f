import { useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { ERROR_MESSAGES, MIN_PASSWORD_LENGTH, newPasswordFormSchema, type User } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { renameField, useFormSubmit } from '../../lib/use-form-submit.ts';
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
  const form = useFormSubmit({ fallbackMessage: ERROR_MESSAGES.updateProfile, mapErrors: renameField('newPassword', 'password') });
  const { errors } = form;

  useEffect(() => {
    document.title = `Choose your password · ${PRODUCT_TITLE}`;
  }, []);

  const handleSubmit = form.handle(
    () => newPasswordFormSchema.safeParse({ password, confirmPassword }),
    async (input) => {
      replaceSessionUser(await setFirstPassword(input.password));
      onDone?.();
    },
  );

  return (
    <main className="auth-page">
      <div className="auth-card">
        <PageHeading className="auth-card__title">{PRODUCT_TITLE}</PageHeading>
        <h2 className="auth-card__subtitle">Welcome, {user.firstName}! Choose your password</h2>
        <p>You will use it with {user.email} to sign in from now on. The link you opened works only once.</p>
        {form.formError ? <Alert>{form.formError}</Alert> : null}
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
          <Button type="submit" isDisabled={form.isBusy} className="button--block">
            {form.isBusy ? 'Saving...' : 'Set password and continue'}
          </Button>
        </Form>
      </div>
    </main>
  );
}

import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Form, Link } from 'react-aria-components';
import { ERROR_MESSAGES, MIN_PASSWORD_LENGTH, newPasswordFormSchema, SERVER_MESSAGES, SUCCESS_MESSAGES } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { paths } from '../../config/paths.ts';
import { toApiError } from '../../lib/api-client.ts';
import { Alert } from '../../lib/alert.tsx';
import { useFormSubmit } from '../../lib/use-form-submit.ts';
import { Button, LinkButton } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { checkResetToken, resetPassword } from './api/password-reset.ts';

const RESET_TITLE = 'Choose a new password';

/** /reset-password?token=...: a new password with the sign-in rules; the link works once. */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(token ? null : SERVER_MESSAGES.invalidResetToken);
  const [isLinkDead, setLinkDead] = useState(!token);
  const [isChecking, setChecking] = useState(Boolean(token));
  const [isDone, setDone] = useState(false);
  const form = useFormSubmit({
    fallbackMessage: ERROR_MESSAGES.passwordResetFailed,
    onError: (apiError) => {
      // INVALID_TOKEN: expired, already used or never issued. Nothing typed here can fix it.
      if (apiError.code !== 'INVALID_TOKEN') return;
      setLinkDead(true);
      setError(apiError.message);
    },
  });
  const { errors } = form;

  useEffect(() => {
    document.title = `${RESET_TITLE} · ${PRODUCT_TITLE}`;
  }, []);

  // A used or expired link says so before anyone types a new password. Without an answer
  // (offline) the form shows, and saving reports what the server says then.
  useEffect(() => {
    if (!token) return;
    let isCurrent = true;
    checkResetToken(token).then(
      () => {
        if (isCurrent) setChecking(false);
      },
      (e: unknown) => {
        if (!isCurrent) return;
        const apiError = toApiError(e, SERVER_MESSAGES.invalidResetToken);
        if (apiError.code === 'INVALID_TOKEN') {
          setLinkDead(true);
          setError(apiError.message);
        }
        setChecking(false);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);

  const handleSubmit = form.handle(
    () => newPasswordFormSchema.safeParse({ password, confirmPassword }),
    async (input) => {
      await resetPassword(token, input.password);
      setDone(true);
    },
  );

  return (
    <main className="auth-page">
      <div className="auth-card">
        <PageHeading className="auth-card__title">{PRODUCT_TITLE}</PageHeading>
        <h2 className="auth-card__subtitle">{RESET_TITLE}</h2>
        {isChecking ? (
          <Spinner label="Checking your link..." />
        ) : isDone ? (
          <>
            <Alert tone="success">{SUCCESS_MESSAGES.passwordResetSuccessful}. Sign in with your new password.</Alert>
            <LinkButton href={paths.login} className="button--block">
              Go to sign in
            </LinkButton>
          </>
        ) : isLinkDead ? (
          <>
            <Alert>{error ?? SERVER_MESSAGES.invalidResetToken}</Alert>
            <LinkButton href={paths.forgotPassword} className="button--block">
              Request a new link
            </LinkButton>
          </>
        ) : (
          <>
            {form.formError ? <Alert>{form.formError}</Alert> : null}
            <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
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
                {form.isBusy ? 'Saving...' : 'Save new password'}
              </Button>
            </Form>
          </>
        )}
        {/* After success the one way on is 'Go to sign in' above. */}
        {isDone ? null : (
          <p className="auth-card__footer">
            <Link href={paths.login} className="text-link">
              Back to sign in
            </Link>
          </p>
        )}
      </div>
    </main>
  );
}

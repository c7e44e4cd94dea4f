import { useEffect, useState } from 'react';
import { Form, Link } from 'react-aria-components';
import { ERROR_MESSAGES, forgotPasswordInputSchema, SCREEN_TEXTS, SUCCESS_MESSAGES } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { useFormSubmit } from '../../lib/use-form-submit.ts';
import { requestPasswordReset } from './api/password-reset.ts';

const FORGOT_PASSWORD_TITLE = SCREEN_TEXTS.forgotPasswordLink;

/** Asks for a reset email. The answer is the same for any address (no account enumeration). */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useFormSubmit({ fallbackMessage: ERROR_MESSAGES.resetEmailFailed });

  useEffect(() => {
    document.title = `${FORGOT_PASSWORD_TITLE} · ${PRODUCT_TITLE}`;
  }, []);

  const handleSubmit = form.handle(
    () => forgotPasswordInputSchema.safeParse({ email }),
    async (input) => {
      await requestPasswordReset(input.email);
      setSentTo(input.email);
    },
  );

  return (
    <main className="auth-page">
      <div className="auth-card">
        <PageHeading className="auth-card__title">{PRODUCT_TITLE}</PageHeading>
        <h2 className="auth-card__subtitle">{FORGOT_PASSWORD_TITLE}</h2>
        {sentTo ? (
          <Alert tone="success">
            <p>{SUCCESS_MESSAGES.passwordResetEmailSent}</p>
            <p>If an active account uses {sentTo}, an email with a reset link is on its way. The link works once, within one hour.</p>
          </Alert>
        ) : (
          <>
            <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
            {form.formError ? <Alert>{form.formError}</Alert> : null}
            <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
              <TextField
                label="Email"
                name="email"
                type="email"
                autoComplete="username"
                inputMode="email"
                value={email}
                onChange={setEmail}
                errorMessage={form.errors.email}
                autoFocus
              />
              <Button type="submit" isDisabled={form.isBusy} className="button--block">
                {form.isBusy ? 'Sending...' : 'Send reset link'}
              </Button>
            </Form>
          </>
        )}
        <p className="auth-card__footer">
          <Link href={paths.login} className="text-link">
            Back to sign in
          </Link>
        </p>
      </div>
    </main>
  );
}

import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { ERROR_MESSAGES, isAdminRole, isLandownerRole, SCREEN_TEXTS, SERVER_MESSAGES, SUCCESS_MESSAGES } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { afterBootPress, hasBootSignIn, takeBootSignIn } from '../../lib/boot-screen.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { FullPageSpinner } from '../../lib/spinner.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { toApiError } from '../../lib/api-client.ts';
import { DEVICE_LINK_PARAM, offersDeviceLink, requestDeviceLink } from './device-link.ts';
import { sessionStore, useSession } from './session-store.ts';

type FromState = { from?: { pathname: string; search?: string; hash?: string } } | null;

/**
 * The page the officer was sent away from (spec: redirect to the page originally requested); with
 * none, their home: the officer's dashboard, or for an admin the Admin Dashboard (an admin files
 * no notices, so the officer's counts would all be zero; docs/decisions/0020).
 */
function redirectTarget(state: FromState, role: string | undefined): string {
  const from = state?.from;
  // A landowner's home is their car parks (decision 0042).
  const home = isLandownerRole(role) ? paths.landowner.home : isAdminRole(role) ? paths.admin.dashboard : paths.dashboard;
  if (!from?.pathname || from.pathname === paths.login || from.pathname === paths.home) return home;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

export function LoginScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const hasRestored = useSession((s) => s.hasRestored);
  const isLoading = useSession((s) => s.isLoading);
  const error = useSession((s) => s.error);
  const login = useSession((s) => s.login);
  const clearError = useSession((s) => s.clearError);
  const role = useSession((s) => s.user?.role);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const target = redirectTarget(location.state as FromState, role);
  const showsForm = hasRestored && !isAuthenticated;
  // Taking over the painted form, the caret goes where it was, not to the first field.
  const [isTakingOverBoot] = useState(hasBootSignIn);
  // Opened from an emailed sign-in link: kept for the sign-in, and taken out of the address bar
  // and the history at once, so nobody reads it off the screen or the back button.
  const [deviceLink, setDeviceLink] = useState(() => new URLSearchParams(location.search).get(DEVICE_LINK_PARAM) ?? undefined);
  const [linkRequest, setLinkRequest] = useState<{ state: 'idle' | 'sending' } | { state: 'sent' | 'failed'; message: string }>({
    state: 'idle',
  });

  useEffect(() => {
    if (deviceLink) void navigate({ pathname: location.pathname, search: '' }, { replace: true, state: location.state as FromState });
    // Once, on arrival with the link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // index.html painted this form before the code arrived: take over what was typed
  // there, the field being typed in, and a Sign In already pressed, before this one paints.
  useLayoutEffect(() => {
    if (!showsForm) return;
    return afterBootPress(() => {
      const boot = takeBootSignIn();
      if (!boot) return;
      if (boot.email) setEmail(boot.email);
      if (boot.password) setPassword(boot.password);
      (boot.focused === 'password' ? passwordRef : emailRef).current?.focus();
      // After the values above are rendered, so the submit reads them.
      if (boot.isSubmitted) setTimeout(() => formRef.current?.requestSubmit(), 0);
    });
  }, [showsForm]);

  useEffect(() => {
    document.title = `${SCREEN_TEXTS.signIn} · ${PRODUCT_TITLE}`;
  }, []);
  // Spec: any stored auth error is cleared when leaving the screen.
  useEffect(() => () => clearError(), [clearError]);

  if (!hasRestored) return <FullPageSpinner />;
  if (isAuthenticated) return <Navigate to={target} replace />;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The shared schema (and zod with it) is fetched on the first Sign In, not with the page: the
    // sign-in screen must paint fast on one bar of signal.
    const { fieldErrors, signInFormSchema } = await import('./sign-in-validation.ts');
    const parsed = signInFormSchema.safeParse({ email, password });
    if (!parsed.success) {
      const next = fieldErrors(parsed.error);
      setErrors(next);
      (next.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setErrors({});
    setLinkRequest({ state: 'idle' });
    // The role is known only now: the target is worked out again with it.
    if (await login({ ...parsed.data, ...(deviceLink ? { deviceLink } : {}) }))
      void navigate(redirectTarget(location.state as FromState, sessionStore.getState().user?.role), { replace: true });
    // A dead link is not sent again: the next try is an ordinary sign-in, which may ask for a new one.
    else if (sessionStore.getState().error === SERVER_MESSAGES.invalidDeviceLink) setDeviceLink(undefined);
  }

  /** The refusal's way in for a new device: a link emailed to the account, which a stranger does not read. */
  async function handleEmailDeviceLink() {
    const { emailOnlySchema, fieldErrors } = await import('./sign-in-validation.ts');
    const parsed = emailOnlySchema.safeParse({ email });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      emailRef.current?.focus();
      return;
    }
    setLinkRequest({ state: 'sending' });
    try {
      await requestDeviceLink(parsed.data.email);
      setLinkRequest({ state: 'sent', message: SUCCESS_MESSAGES.deviceLinkEmailSent });
    } catch (failure) {
      setLinkRequest({ state: 'failed', message: toApiError(failure, ERROR_MESSAGES.deviceLinkEmailFailed).message });
    }
  }

  function clearFieldError(field: string) {
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  }

  return (
    <main className="auth-page">
      <div className="auth-card">
        <PageHeading className="auth-card__title">{PRODUCT_TITLE}</PageHeading>
        <p className="auth-card__subtitle">{SCREEN_TEXTS.signInSubtitle}</p>
        {deviceLink && !error ? <Alert tone="info">{SCREEN_TEXTS.deviceLinkReady}</Alert> : null}
        {error ? <Alert>{error}</Alert> : null}
        {offersDeviceLink(error) && linkRequest.state !== 'sent' ? (
          <p>
            <button
              type="button"
              className="button button--secondary button--block"
              onClick={() => void handleEmailDeviceLink()}
              disabled={linkRequest.state === 'sending'}
            >
              {linkRequest.state === 'sending' ? SCREEN_TEXTS.sendingDeviceLink : SCREEN_TEXTS.emailDeviceLink}
            </button>
          </p>
        ) : null}
        {linkRequest.state === 'sent' ? <Alert tone="success">{linkRequest.message}</Alert> : null}
        {linkRequest.state === 'failed' ? <Alert>{linkRequest.message}</Alert> : null}
        {/* Plain HTML, not react-aria: this screen must be usable before much code arrives. */}
        <form ref={formRef} className="form-stack" onSubmit={handleSubmit} noValidate>
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(value) => {
              setEmail(value);
              clearFieldError('email');
            }}
            errorMessage={errors.email}
            inputRef={emailRef}
            autoFocus={!isTakingOverBoot}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(value) => {
              setPassword(value);
              clearFieldError('password');
            }}
            errorMessage={errors.password}
            inputRef={passwordRef}
          />
          <button type="submit" className="button button--primary button--block" disabled={isLoading}>
            {isLoading ? SCREEN_TEXTS.signingIn : SCREEN_TEXTS.signIn}
          </button>
        </form>
        <p className="auth-card__footer">
          <Link to={paths.forgotPassword} className="text-link">
            {SCREEN_TEXTS.forgotPasswordLink}
          </Link>
        </p>
      </div>
    </main>
  );
}

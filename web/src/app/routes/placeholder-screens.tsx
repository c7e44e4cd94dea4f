import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { NAV_LABELS, SCREEN_TEXTS } from '@parkpatrol/shared';
import { PRODUCT_TITLE } from '../../config/env.ts';
import { paths } from '../../config/paths.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { Spinner } from '../../lib/spinner.tsx';

/** Spec route table placeholders; issue #6 replaces them with real screens. */

function PublicPlaceholder({ text }: { text: string }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <PageHeading className="auth-card__title">{PRODUCT_TITLE}</PageHeading>
        <p>{text}</p>
      </div>
    </main>
  );
}

export function ForgotPasswordPlaceholder() {
  return <PublicPlaceholder text={SCREEN_TEXTS.forgotPasswordComingSoon} />;
}

export function ResetPasswordPlaceholder() {
  return <PublicPlaceholder text={SCREEN_TEXTS.resetPasswordComingSoon} />;
}

/** Spec: /u/{uniqueUrl} shows 'Authenticating...' then always goes to /login; no call is made. */
export function AccessLinkPlaceholder() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(paths.login, { replace: true }), 600);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <main className="full-page-spinner">
      <Spinner label={SCREEN_TEXTS.authenticating} />
    </main>
  );
}

export function ComingSoonScreen({ title }: { title: string }) {
  return (
    <div className="page">
      <PageHeading>{title}</PageHeading>
      <p className="muted">This page is {SCREEN_TEXTS.comingSoon}.</p>
    </div>
  );
}

export function ProfilePlaceholder() {
  return <ComingSoonScreen title={NAV_LABELS.profile} />;
}

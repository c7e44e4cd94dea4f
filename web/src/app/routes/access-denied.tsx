import { SCREEN_TEXTS } from '@parkpatrol/shared';
import { ShieldAlert } from 'lucide-react';
import { paths } from '../../config/paths.ts';
import { Link } from 'react-router-dom';
import { PageHeading } from '../../lib/page-heading.tsx';

export function AccessDenied() {
  return (
    <div className="centered-message">
      <ShieldAlert aria-hidden="true" size={48} className="centered-message__icon" />
      <PageHeading>{SCREEN_TEXTS.accessDeniedTitle}</PageHeading>
      <p>{SCREEN_TEXTS.accessDeniedText}</p>
      {/* A router link styled as a button: the guards load with the first screen, react-aria does not. */}
      <Link to={paths.dashboard} className="button button--primary">
        {SCREEN_TEXTS.goToDashboard}
      </Link>
    </div>
  );
}

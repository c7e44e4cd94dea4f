import { SCREEN_TEXTS } from '@parkpatrol/shared';
import { ShieldAlert } from 'lucide-react';
import { paths } from '../../config/paths.ts';
import { LinkButton } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';

export function AccessDenied() {
  return (
    <div className="centered-message">
      <ShieldAlert aria-hidden="true" size={48} className="centered-message__icon" />
      <PageHeading>{SCREEN_TEXTS.accessDeniedTitle}</PageHeading>
      <p>{SCREEN_TEXTS.accessDeniedText}</p>
      <LinkButton href={paths.dashboard}>{SCREEN_TEXTS.goToDashboard}</LinkButton>
    </div>
  );
}

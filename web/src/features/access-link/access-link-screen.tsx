import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { SCREEN_TEXTS, SERVER_MESSAGES, type User } from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { toApiError } from '../../lib/api-client.ts';
import { Spinner } from '../../lib/spinner.tsx';
import { adoptSession, showSignInMessage } from '../auth/adopt-session.ts';
import { exchangeAccessLink } from './api/exchange-access-link.ts';
import { SetPasswordForm } from './set-password-form.tsx';

/**
 * /u/{token} from the onboarding email or its QR code: exchanges the single-use token for a
 * session. A new user chooses a password first; anyone else lands on the dashboard. A dead link
 * goes to sign-in with the reason shown there.
 */
export function AccessLinkScreen() {
  const { uniqueUrl = '' } = useParams();
  const navigate = useNavigate();
  const [user, setUser] = useState<User | null>(null);

  useEffect(() => {
    let isCurrent = true;
    exchangeAccessLink(uniqueUrl).then(
      async (answer) => {
        if (!isCurrent) return;
        await adoptSession(answer);
        if (!isCurrent) return;
        if (answer.mustSetPassword) setUser(answer.user);
        else void navigate(paths.dashboard, { replace: true });
      },
      (error: unknown) => {
        if (!isCurrent) return;
        const apiError = toApiError(error, SERVER_MESSAGES.invalidAccessLink);
        // No answer at all: say so, rather than blaming the link.
        showSignInMessage(
          apiError.isNetworkError
            ? 'The access link could not be checked: no connection to the server. Open it again when you are online.'
            : apiError.message,
        );
        void navigate(paths.login, { replace: true });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [uniqueUrl, navigate]);

  if (!user) {
    return (
      <main className="full-page-spinner">
        <Spinner label={SCREEN_TEXTS.authenticating} />
      </main>
    );
  }
  return <SetPasswordForm user={user} onDone={() => navigate(paths.dashboard, { replace: true })} />;
}

import { useRouteError } from 'react-router-dom';
import { TriangleAlert } from 'lucide-react';
import { PageHeading } from '../../lib/page-heading.tsx';

/**
 * Shown instead of react-router's developer error page. The usual cause in the field is a new
 * version deployed while the app was open, so a screen's code can no longer be fetched: a reload
 * picks up the new version (drafts are kept on the device).
 */
export function RouteError() {
  const error = useRouteError();
  const isStaleVersion = error instanceof TypeError && /dynamically imported module|Importing a module script failed/i.test(error.message);
  return (
    <main className="centered-message">
      <TriangleAlert aria-hidden="true" size={48} className="centered-message__icon" />
      <PageHeading>{isStaleVersion ? 'A new version is available' : 'Something went wrong'}</PageHeading>
      <p>{isStaleVersion ? 'Reload to continue with the latest version.' : 'Reload the page to try again.'}</p>
      {/* Plain: this screen is on the first load's path, react-aria is not (issue 11). */}
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}

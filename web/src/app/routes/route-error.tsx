import { Component, type ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';
import { PageHeading } from '../../lib/page-heading.tsx';

/** A screen's code is of another version than the page's: a new version was deployed meanwhile. */
export class StaleVersionError extends Error {}

/** A screen that failed to load or render: the usual cause in the field is a new version deployed. */
export function isStaleVersionError(error: unknown): boolean {
  return (
    error instanceof StaleVersionError ||
    (error instanceof TypeError &&
      /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(error.message))
  );
}

/**
 * Shown instead of a blank page when a screen throws. The usual cause in the field is a new
 * version deployed while the app was open, so a screen's code can no longer be fetched: a reload
 * picks up the new version (drafts are kept on the device).
 */
export function RouteError({ error }: { error: unknown }) {
  const isStaleVersion = isStaleVersionError(error);
  return (
    <main className="centered-message">
      <TriangleAlert aria-hidden="true" size={48} className="centered-message__icon" />
      <PageHeading>{isStaleVersion ? 'A new version is available' : 'Something went wrong'}</PageHeading>
      <p>{isStaleVersion ? 'Reload to continue with the latest version.' : 'Reload the page to try again.'}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}

/** Catches what any screen throws while rendering (React's only way is a class). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteError error={this.state.error} />;
  }
}

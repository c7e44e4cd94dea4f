import { SCREEN_TEXTS } from '@parkpatrol/shared';

export function Spinner({ label = SCREEN_TEXTS.loading }: { label?: string }) {
  return (
    <div className="spinner" role="status">
      <span className="spinner__circle" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** While the session is loading, a full-page spinner with 'Loading...' (docs/product.md, The shell). */
export function FullPageSpinner({ label = SCREEN_TEXTS.loading }: { label?: string }) {
  return (
    <main className="full-page-spinner">
      <Spinner label={label} />
    </main>
  );
}

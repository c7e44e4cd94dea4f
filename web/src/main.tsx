import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRODUCT_TITLE } from './config/env.ts';
import { App } from './app/app.tsx';
import { sessionStore } from './features/auth/session-store.ts';
import { reportUncaughtErrors } from './lib/report-errors.ts';
// The app's first stylesheet, inlined into index.html at build (docs/decisions/0022). Order is
// cascade order: a later file wins over an earlier one at equal specificity, so keep it.
import './app/theme.css';
import './app/styles/controls.css';
import './app/styles/public-pages.css';
import './app/styles/shell.css';
import './app/styles/pages.css';
import './app/styles/lists.css';
import './app/styles/details.css';
import './app/styles/wizard.css';
import './app/styles/offline.css';

reportUncaughtErrors();
document.title = PRODUCT_TITLE;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The first render as a transition: React renders in slices of a few milliseconds, so the page
// index.html painted (and typing into its form) never waits behind one long task while the app
// takes over; the takeover itself is still one commit (lib/boot-screen.ts).
const root = createRoot(container);
// The app paints once it knows whether the device holds a session (an IndexedDB read), so the
// sign-in screen takes over the painted form instead of a spinner replacing it; the painted page
// can be typed into meanwhile. A database that does not answer (Safari has hung on opening one)
// never holds the app back for long: it then starts as with a session, behind its spinner.
void Promise.race([sessionStore.getState().loadSession(), new Promise((resolve) => setTimeout(resolve, 2000))]).finally(() => {
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});

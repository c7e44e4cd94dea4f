import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRODUCT_TITLE } from './config/env.ts';
import { App } from './app/app.tsx';
import { reportUncaughtErrors } from './lib/report-errors.ts';
import './app/theme.css';

reportUncaughtErrors();
document.title = PRODUCT_TITLE;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The first render as a transition: React renders in slices of a few milliseconds, so the page
// index.html painted (and typing into its form) never waits behind one long task while the app
// takes over; the takeover itself is still one commit (lib/boot-screen.ts).
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

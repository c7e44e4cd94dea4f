import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRODUCT_TITLE } from './config/env.ts';
import { App } from './app/app.tsx';
import { reportUncaughtErrors } from './lib/report-errors.ts';
import './app/theme.css';

reportUncaughtErrors();
document.title = PRODUCT_TITLE;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

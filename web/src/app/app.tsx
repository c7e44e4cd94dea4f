import { Suspense, useLayoutEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { afterBootPress, removeBootScreen } from '../lib/boot-screen.ts';
import { FullPageSpinner } from '../lib/spinner.tsx';
import { AppRoutes } from './router.tsx';
import { RouteErrorBoundary } from './routes/route-error.tsx';

export function App() {
  // The first screen index.html painted goes in the frame the app paints its own (the sign-in
  // screen, an inner layout effect, has already taken what was typed into it), or once a press
  // on it has ended: the sign-in screen's wait began first, so it still takes over first.
  useLayoutEffect(() => afterBootPress(removeBootScreen), []);
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<FullPageSpinner />}>
          <AppRoutes />
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}

import { useLayoutEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { removeBootScreen } from '../lib/boot-screen.ts';
import { createAppRouter } from './router.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  // The first screen index.html painted goes in the frame the app paints its own (the sign-in
  // screen, an inner layout effect, has already taken what was typed into it).
  useLayoutEffect(removeBootScreen, []);
  return <RouterProvider router={router} />;
}

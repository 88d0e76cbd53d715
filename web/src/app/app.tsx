import * as React from 'react';
import { RouterProvider } from 'react-router-dom';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/** The app: providers around the router; in a production build it also installs the offline page. */
export function App() {
  const router = React.useMemo(createAppRouter, []);
  React.useEffect(() => {
    // public/sw.js: the offline page when the network is gone (issue 26); nothing else is cached.
    if (import.meta.env.PROD && 'serviceWorker' in navigator) {
      navigator.serviceWorker.register('/sw.js').catch((error) => console.warn('No offline page:', error));
    }
  }, []);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}

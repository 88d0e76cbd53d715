/**
 * The route table of SPEC.md §2 with its guards. The landing page is in the entry chunk; every
 * other screen is a lazy chunk so the first paint of "/" stays small.
 */
import { createBrowserRouter, Outlet, ScrollRestoration, type RouteObject } from 'react-router-dom';
import { RouteError } from '@/components/errors/route-error';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { RedirectIfSignedIn, RequireRole, RequireSignedIn } from '@/lib/guards';
import { LandingRoute } from './routes/landing';

type RouteModule = { default: React.ComponentType };

/** Turns `() => import('./routes/x')` (a default-exported page) into a route's `lazy`. */
const page = (load: () => Promise<RouteModule>) => async () => ({ Component: (await load()).default });

function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: paths.home.path, element: <LandingRoute /> },
      { path: paths.expertCoaches.path, lazy: page(() => import('./routes/expert-coaches')) },
      {
        element: <RedirectIfSignedIn />,
        children: [
          { path: paths.login.path, lazy: page(() => import('./routes/login')) },
          { path: paths.forgotPassword.path, lazy: page(() => import('./routes/forgot-password')) },
        ],
      },
      // Reachable signed in or not: the emailed link may be opened anywhere.
      { path: paths.resetPassword.path, lazy: page(() => import('./routes/reset-password')) },
      {
        element: <RequireSignedIn />,
        children: [
          { path: paths.coaches.path, lazy: page(() => import('./routes/coaches')) },
          { path: paths.coachDetail.path, lazy: page(() => import('./routes/coach-detail')) },
          { path: paths.receipt.path, lazy: page(() => import('./routes/receipt')) },
          // Coaches, gyms and admins; the page sends a client to their dashboard.
          { path: paths.developers.path, lazy: page(() => import('./routes/developers')) },
          // Every role's conversations (issue 36).
          { path: paths.messages.path, lazy: page(() => import('./routes/messages')) },
          { path: paths.conversation.path, lazy: page(() => import('./routes/messages')) },
        ],
      },
      {
        element: <RequireRole role="admin" />,
        children: [
          { path: paths.dashboards.admin.path, lazy: page(() => import('./routes/dashboards/admin')) },
          { path: paths.adminReports.path, lazy: page(() => import('./routes/admin-reports')) },
        ],
      },
      {
        element: <RequireRole role="coach" />,
        children: [
          { path: paths.dashboards.coach.path, lazy: page(() => import('./routes/dashboards/coach')) },
        ],
      },
      {
        element: <RequireRole role="client" />,
        children: [
          { path: paths.dashboards.client.path, lazy: page(() => import('./routes/dashboards/client')) },
        ],
      },
      {
        element: <RequireRole role="gym" />,
        children: [
          { path: paths.dashboards.gym.path, lazy: page(() => import('./routes/dashboards/gym')) },
        ],
      },
      { path: '*', lazy: page(() => import('./routes/not-found')) },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);

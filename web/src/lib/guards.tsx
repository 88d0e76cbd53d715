/** Route guards (SPEC route table): exact-role dashboards, signed-in pages, and /login's bounce. */
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { dashboardPathFor, useAuth, type Role } from '@/lib/auth';

/** Renders the child routes only for a signed-in user with exactly this role, else /login. */
export function RequireRole({ role }: { role: Role }) {
  const { user } = useAuth();
  const location = useLocation();
  if (!user || user.role !== role) {
    return <Navigate to={paths.login.getHref()} replace state={{ from: location.pathname }} />;
  }
  return <Outlet />;
}

/** Renders the child routes for any signed-in user, else /login. */
export function RequireSignedIn() {
  const { user } = useAuth();
  const location = useLocation();
  if (!user) {
    return <Navigate to={paths.login.getHref()} replace state={{ from: location.pathname }} />;
  }
  return <Outlet />;
}

/** For /login: a signed-in user is sent to their own dashboard. */
export function RedirectIfSignedIn() {
  const { user } = useAuth();
  if (user) return <Navigate to={dashboardPathFor(user.role)} replace />;
  return <Outlet />;
}

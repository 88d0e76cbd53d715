import { CodeXml, LogOut, MonitorSmartphone, UserRound } from 'lucide-react';
import * as React from 'react';
import { NavLink } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { HeaderNav } from '@/components/layouts/header-nav';
import { Logo } from '@/components/layouts/logo';
import { paths } from '@/config/paths';
import { SignedInDevicesDialog } from '@/features/auth/components/signed-in-devices';
import { MessagesNavLink } from '@/features/messages/components/messages-nav-link';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useLogout, useUser } from '@/lib/auth';

interface DashboardLayoutProps {
  /** The page heading, e.g. "Coach Dashboard". */
  title: string;
  /** A line under the heading. */
  subtitle?: React.ReactNode;
  /** Extra header controls placed before the user's name (e.g. "Find Coaches"). */
  navActions?: React.ReactNode;
  children: React.ReactNode;
}

/** Header (logo → /, the signed-in user's full name, Signed-in devices, Logout) and a page body for
 * every dashboard. */
export function DashboardLayout({ title, subtitle, navActions, children }: DashboardLayoutProps) {
  return (
    <div className="min-h-screen bg-background">
      <AppHeader navActions={navActions} />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <div className="mb-6 sm:mb-8">
          <h1 className="break-words text-2xl font-extrabold tracking-tight text-navy-900 sm:text-3xl">{title}</h1>
          {subtitle ? <p className="mt-1 text-muted-foreground">{subtitle}</p> : null}
        </div>
        {children}
      </main>
    </div>
  );
}

/** The signed-in top bar, shared by the dashboards and the signed-in coach pages: Messages with
 * its unread count, the notification bell, Developers (coaches, gyms and admins), the user's name, Signed-in devices,
 * Logout. */
export function AppHeader({ navActions }: { navActions?: React.ReactNode }) {
  const user = useUser();
  const logout = useLogout();
  const [devices, setDevices] = React.useState(false);
  return (
    <header className="sticky top-0 z-40 border-b bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
        <Logo />
        <div className="flex min-w-0 items-center gap-1 sm:gap-3">
          {/* Outside the phone's menu sheet: the counts stay in sight at every width. */}
          <MessagesNavLink />
          <NotificationBell />
          <HeaderNav label="Account">
            {navActions}
            {user.role === 'client' ? null : (
              <Button asChild variant="ghost" size="sm">
                <NavLink to={paths.developers.getHref()}>
                  <CodeXml aria-hidden="true" />
                  Developers
                </NavLink>
              </Button>
            )}
            <span className="inline-flex min-w-0 items-center gap-2 px-3 text-sm font-medium text-navy-800 sm:max-w-xs sm:px-0">
              <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="truncate" data-testid="current-user-name">
                {user.full_name}
              </span>
            </span>
            <Button variant="ghost" size="sm" onClick={() => setDevices(true)}>
              <MonitorSmartphone aria-hidden="true" />
              Signed-in devices
            </Button>
            <Button variant="outline" size="sm" onClick={() => void logout()}>
              <LogOut aria-hidden="true" />
              Logout
            </Button>
          </HeaderNav>
        </div>
      </div>
      <SignedInDevicesDialog open={devices} onOpenChange={setDevices} />
    </header>
  );
}

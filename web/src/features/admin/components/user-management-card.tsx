import { Pencil, Search, Trash2, UserPlus } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { useUserPages } from '../api/get-users';
import type { User } from '../api/types';
import { filterUsers, formatCreated, ROLE_FILTERS, type RoleFilter } from '../utils/users';
import { CreateUserDialog } from './create-user-dialog';
import { DeleteUserDialog } from './delete-user-dialog';
import { RoleBadge } from './role-badge';
import { UserDetailsDialog } from './user-details-dialog';

/** How long the search waits for typing to pause before it asks the server. */
const SEARCH_PAUSE_MS = 300;

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = React.useState(value);
  React.useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * "User Management": search, role filters, the users table, and create, edit and delete.
 *
 * The table reads the users a page at a time (newest first). While every user fits one page, the
 * search and the role filter work on the users in hand, as the person types; once the platform
 * has more users than a page, both go to the server (`q`, `role`), the table shows the pages
 * loaded so far and "Load more users" reads the next one: nobody waits for every user.
 */
export function UserManagementCard({ className }: { className?: string }) {
  const [query, setQuery] = React.useState('');
  const [role, setRole] = React.useState<RoleFilter>('all');
  const settledQuery = useSettled(query, SEARCH_PAUSE_MS);
  // Known from the unfiltered list: null until it has loaded.
  const [fitsOnePage, setFitsOnePage] = React.useState<boolean | null>(null);
  const onServer = fitsOnePage === false;
  const list = useUserPages(
    onServer ? { q: settledQuery, role: role === 'all' ? undefined : role } : {},
  );
  const { users, isLoading, error, hasMore } = list;
  React.useEffect(() => {
    if (!onServer && users) setFitsOnePage(!hasMore);
  }, [onServer, users, hasMore]);
  const [creating, setCreating] = React.useState(false);
  const [editing, setEditing] = React.useState<User | null>(null);
  const [deleting, setDeleting] = React.useState<User | null>(null);
  const all = users ?? [];
  const shown = onServer ? all : filterUsers(all, query, role);
  // Of how many: all in hand; else the server's count; else (a search) as many as found so far.
  const of =
    !onServer ? String(all.length) : list.total !== null ? list.total.toLocaleString('en-US') : `${shown.length}${hasMore ? '+' : ''}`;
  const count = `Showing ${shown.length} of ${of} users`;

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>User Management</CardTitle>
          <CardDescription>Every account on Courtside.</CardDescription>
        </div>
        <Button variant="accent" size="sm" onClick={() => setCreating(true)}>
          <UserPlus aria-hidden="true" />
          Create User
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              type="search"
              aria-label="Search users"
              placeholder="Search by name, email, or ID..."
              className="pl-9"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div role="group" aria-label="Filter by role" className="flex flex-wrap gap-1.5">
            {ROLE_FILTERS.map((filter) => (
              <Button
                key={filter.value}
                size="sm"
                variant={role === filter.value ? 'default' : 'outline'}
                aria-pressed={role === filter.value}
                onClick={() => setRole(filter.value)}
              >
                {filter.label}
              </Button>
            ))}
          </div>
        </div>

        {isLoading ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading users" />
          </div>
        ) : error && !users ? (
          <p role="alert" className="py-8 text-center text-sm text-destructive">
            Failed to load users
          </p>
        ) : (
          <>
            <div className="overflow-x-auto rounded-lg border">
              <table aria-label="Users" className="w-full min-w-[44rem] text-sm">
                <thead className="bg-muted/50 text-left text-xs uppercase tracking-wide text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">Name</th>
                    <th scope="col" className="px-4 py-3 font-semibold">Email</th>
                    <th scope="col" className="px-4 py-3 font-semibold">Phone</th>
                    <th scope="col" className="px-4 py-3 font-semibold">Role</th>
                    <th scope="col" className="px-4 py-3 font-semibold">Created</th>
                    {/* Pinned to the right edge: the table scrolls sideways on a phone, its actions stay in reach. */}
                    <th scope="col" className="sticky right-0 bg-muted px-4 py-3 text-right font-semibold">Actions</th>
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {shown.length ? (
                    shown.map((user) => (
                      <tr key={user.user_id} className="hover:bg-muted/30">
                        <td className="px-4 py-3 font-medium text-navy-900">{user.full_name}</td>
                        <td className="max-w-[16rem] truncate px-4 py-3 text-navy-700">{user.email}</td>
                        <td className="px-4 py-3 text-navy-700">{user.phone || '-'}</td>
                        <td className="px-4 py-3">
                          <RoleBadge role={user.role} />
                        </td>
                        <td className="whitespace-nowrap px-4 py-3 text-muted-foreground">
                          <time dateTime={user.created_at}>{formatCreated(user.created_at)}</time>
                        </td>
                        <td className="sticky right-0 bg-white px-2 py-2 shadow-[-8px_0_8px_-8px_rgba(11,31,58,0.2)] sm:px-4 sm:py-3">
                          <div className="flex justify-end gap-1">
                            <Button variant="ghost" size="icon" aria-label={`Edit ${user.full_name}`} onClick={() => setEditing(user)}>
                              <Pencil aria-hidden="true" />
                            </Button>
                            {user.role !== 'admin' ? (
                              <Button
                                variant="ghost"
                                size="icon"
                                className={cn('text-destructive hover:bg-red-50')}
                                aria-label={`Delete ${user.full_name}`}
                                onClick={() => setDeleting(user)}
                              >
                                <Trash2 aria-hidden="true" />
                              </Button>
                            ) : null}
                          </div>
                        </td>
                      </tr>
                    ))
                  ) : (
                    <tr>
                      <td colSpan={6} className="px-4 py-10 text-center text-muted-foreground">
                        No users found
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {count}
              </p>
              {onServer && hasMore ? (
                <Button variant="outline" size="sm" onClick={() => void list.loadMore()} disabled={list.loadingMore}>
                  {list.loadingMore ? 'Loading more users…' : 'Load more users'}
                </Button>
              ) : null}
            </div>
          </>
        )}
      </CardContent>

      <CreateUserDialog open={creating} onOpenChange={setCreating} />
      <UserDetailsDialog user={editing} onClose={() => setEditing(null)} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

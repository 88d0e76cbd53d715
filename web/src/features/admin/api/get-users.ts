import { toast } from 'sonner';
import { refreshPaged, usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';
import type { Role, User } from './types';

/**
 * GET /api/admin/users?limit=&cursor=&q=&role=: the users newest first, a page at a time. `q`
 * (a part of the full name, email or id, any case) and `role` filter on the server; each page's
 * `Link` header names the next one, `X-Total-Count` says how many users the filters match (when
 * there is no `q`).
 */
export const ADMIN_USERS_KEY = '/admin/users';

/** Users per page: the table's first screenful and more. */
export const USERS_PAGE = 50;

export interface UserFilters {
  q?: string;
  role?: Role;
}

/** Reads every user list on screen again from its first page (after a create, edit or delete). */
export const refreshUserPages = () => refreshPaged(ADMIN_USERS_KEY);

/** The pages of users `filters` let through, one more at a time by `loadMore`. */
export function useUserPages(filters: UserFilters) {
  const first = withQuery(ADMIN_USERS_KEY, { limit: USERS_PAGE, q: filters.q?.trim(), role: filters.role });
  const list = usePagedList<User>(first, (user) => user.user_id, {
    // One toast per failure, however often SWR retries (SPEC §8).
    onError: () => toast.error('Failed to load users', { id: 'admin-users-error' }),
  });
  return { ...list, users: list.rows };
}

/** The coaches a filter offers (the Payments list's): up to 100, newest first, one page; its own
 * read (not the table's pages, whose key it would otherwise share). */
export const COACH_CHOICES = 100;
export function useCoachChoices() {
  const list = usePagedList<User>(withQuery(ADMIN_USERS_KEY, { limit: COACH_CHOICES, role: 'coach' }), (user) => user.user_id);
  return list.rows;
}

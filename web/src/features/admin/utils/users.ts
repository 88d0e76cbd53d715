import type { Role, User } from '../api/types';

export type RoleFilter = 'all' | Role;

/** The role filter buttons, in SPEC §2's order; All is the default. */
export const ROLE_FILTERS: { value: RoleFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'admin', label: 'Admin' },
  { value: 'coach', label: 'Coach' },
  { value: 'client', label: 'Client' },
  { value: 'gym', label: 'Gym' },
];

/** SPEC §5: a case-insensitive substring match over full_name, email or user_id, then the role. */
export function filterUsers(users: User[], query: string, role: RoleFilter): User[] {
  const needle = query.trim().toLowerCase();
  return users.filter(
    (user) =>
      (role === 'all' || user.role === role) &&
      (!needle ||
        [user.full_name, user.email, user.user_id].some((field) => (field ?? '').toLowerCase().includes(needle))),
  );
}

/** "2025-03-07T18:20:00Z" → "Mar 7, 2025" (the reader's local day). */
export function formatCreated(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

import type { Role } from '@/lib/auth';

const ROLE_LABELS: Record<Role, string> = { client: 'Client', coach: 'Coach', gym: 'Gym', admin: 'Admin' };

/** "Coach", "Gym": who the other person of a thread is (nothing for a deleted account). */
export const roleLabel = (role: Role | null) => (role ? (ROLE_LABELS[role] ?? role) : '');

/** A message's time: "14:05" today, "Nov 3, 14:05" before. */
export function formatMessageTime(at: string, now: Date = new Date()): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (date.toDateString() === now.toDateString()) return time;
  const day = date.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
  return `${day}, ${time}`;
}

/**
 * What a token may be granted and what a webhook may subscribe to (issue 37), in the words the
 * page shows them: scopes by area (read and write), event kinds by the record they are about.
 */
import type { Role } from '@/lib/auth';
import type { TokenScope, WebhookEventType } from '../api/types';

export interface ScopeArea {
  /** The scope's prefix: `bookings` → "bookings:read", "bookings:write". */
  area: string;
  label: string;
  /** Only an admin may grant these. */
  adminOnly?: boolean;
}

export const SCOPE_AREAS: ScopeArea[] = [
  { area: 'bookings', label: 'Bookings' },
  { area: 'availability', label: 'Availability' },
  { area: 'court_requests', label: 'Court requests' },
  { area: 'profile', label: 'Profile' },
  { area: 'admin', label: 'Admin', adminOnly: true },
];

export const SCOPE_LEVELS = ['read', 'write'] as const;
export type ScopeLevel = (typeof SCOPE_LEVELS)[number];

export const scopeOf = (area: string, level: ScopeLevel) => `${area}:${level}` as TokenScope;

/** The areas a person of `role` may grant a token. */
export const scopeAreasFor = (role: Role) => SCOPE_AREAS.filter((a) => !a.adminOnly || role === 'admin');

export interface EventGroup {
  label: string;
  kinds: { kind: WebhookEventType; label: string }[];
}

const kinds = (prefix: string, names: [string, string][]) =>
  names.map(([name, label]) => ({ kind: `${prefix}.${name}` as WebhookEventType, label }));

/** Every kind a webhook may subscribe to, grouped as the page shows them. */
export const EVENT_GROUPS: EventGroup[] = [
  {
    label: 'Bookings',
    kinds: kinds('booking', [
      ['created', 'Created'],
      ['confirmed', 'Confirmed'],
      ['denied', 'Denied'],
      ['cancelled', 'Cancelled'],
      ['rescheduled', 'Rescheduled'],
      ['expired', 'Expired'],
      ['completed', 'Completed'],
      ['no_show', 'No-show'],
    ]),
  },
  {
    label: 'Court requests',
    kinds: kinds('court_request', [
      ['created', 'Created'],
      ['approved', 'Approved'],
      ['denied', 'Denied'],
      ['cancelled', 'Cancelled'],
      ['expired', 'Expired'],
    ]),
  },
  { label: 'Reviews', kinds: kinds('review', [['posted', 'Posted']]) },
  {
    label: 'Payments',
    kinds: kinds('payment', [
      ['captured', 'Captured'],
      ['refunded', 'Refunded'],
      ['failed', 'Failed'],
    ]),
  },
];

export const ALL_EVENT_KINDS = EVENT_GROUPS.flatMap((g) => g.kinds.map((k) => k.kind));

/** The https address a webhook must have, or why not (null: fine). Loopback over http is the
 * server's to allow (development and tests), so only the shape is checked here. */
export function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'Enter the full address, starting with https://';
  }
  if (url.protocol === 'https:') return null;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && loopback) return null;
  return 'The address must start with https://';
}

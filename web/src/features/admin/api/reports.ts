/**
 * The admin's Reports list (issue 36): messages people reported, each with the messages around it,
 * and the suspension of a sender; the shapes are the gateway's document's.
 */
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { refreshPaged, usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';
import { refreshAudit } from './get-audit';

/** A message as the report shows it (the conversation's shape). */
export type ReportedMessage = Complete<Schemas['Message']>;

/** One report: who reported which message and why, its sender, and up to 5 messages before and
 * after it (oldest first). */
export type MessageReport = Complete<Schemas['MessageReport']>;

/** POST /api/admin/users/{id}/suspend's answer. */
export type Suspension = Complete<Schemas['Suspended']>;

/** GET /api/admin/reports: newest first, a page at a time. */
export const ADMIN_REPORTS_KEY = '/admin/reports';

export const REPORTS_PAGE = 20;

/** The reports loaded so far; `loadMore` reads the next page. */
export function useReports() {
  return usePagedList<MessageReport>(withQuery(ADMIN_REPORTS_KEY, { limit: REPORTS_PAGE }), (r) => r.report_id);
}

/** The longest reason the suspension keeps. */
export const MAX_SUSPEND_REASON = 500;

/** POST /api/admin/users/{id}/suspend {reason}: their sessions end at once and sign-in is refused;
 * the reports and the activity log read again. */
export async function suspendUser(userId: string, reason: string) {
  const suspension = await api.post<Suspension>(`/admin/users/${encodeURIComponent(userId)}/suspend`, {
    reason: reason.trim(),
  });
  await Promise.all([refreshPaged(ADMIN_REPORTS_KEY), refreshAudit()]);
  return suspension;
}

/**
 * The admin's Reports list (issue 36): messages people reported, each with the messages around it,
 * and the suspension of a sender. The shapes are the design's until the gateway's document has them.
 */
import { api } from '@/lib/api-client';
import { refreshPaged, usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';
import { refreshAudit } from './get-audit';

/** A message as the report shows it (the conversation's shape). */
export interface ReportedMessage {
  message_id: string;
  conversation_id: string;
  sender: { user_id: string | null; full_name: string };
  body: string;
  created_at: string;
  mine: boolean;
  read: boolean;
}

/** One report: who reported which message and why, its sender, and up to 5 messages before and
 * after it (oldest first). */
export interface MessageReport {
  report_id: string;
  reason: string;
  created_at: string;
  reporter: { user_id: string | null; full_name: string };
  sender: { user_id: string | null; full_name: string; suspended: boolean };
  message: ReportedMessage;
  context: ReportedMessage[];
}

/** POST /api/admin/users/{id}/suspend's answer. */
export interface Suspension {
  user_id: string;
  suspended_at: string;
}

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

import { toast } from 'sonner';
import type { Schemas } from '@/lib/api-types';
import { refreshPaged, usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';

/** One admin action as the audit trail recorded it. */
export type AuditEntry = Schemas['AuditEntry'];
export type AuditChange = Schemas['AuditChange'];

/** GET /api/admin/audit?limit=&cursor=: the admin audit trail, newest first, a page at a time. */
export const ADMIN_AUDIT_KEY = '/admin/audit';

/** Entries per page. */
export const AUDIT_PAGE = 20;

/** Reads the activity log again from its first page (after an admin action). */
export const refreshAudit = () => refreshPaged(ADMIN_AUDIT_KEY);

/** The pages of the audit trail loaded so far; `loadMore` reads the next. */
export function useAuditPages() {
  const list = usePagedList<AuditEntry>(withQuery(ADMIN_AUDIT_KEY, { limit: AUDIT_PAGE }), (entry) => entry.audit_id, {
    onError: () => toast.error('Failed to load the activity log', { id: 'admin-audit-error' }),
  });
  return { ...list, entries: list.rows };
}

import { api } from '@/lib/api-client';

/** The longest reason the server takes. */
export const MAX_REPORT_REASON = 500;

/** POST /api/messages/{id}/report {reason} → 201 {report_id}; 409 when already reported. */
export const reportMessage = (messageId: string, reason: string) =>
  api.post<{ report_id: string }>(`/messages/${encodeURIComponent(messageId)}/report`, { reason: reason.trim() });

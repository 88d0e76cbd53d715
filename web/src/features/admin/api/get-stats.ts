import useSWR from 'swr';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import type { AdminStats } from './types';

/** GET /api/admin/stats. */
export const ADMIN_STATS_KEY = '/admin/stats';

export const getAdminStats = () => api.get<AdminStats>(ADMIN_STATS_KEY);

export function useAdminStats() {
  return useSWR<AdminStats>(ADMIN_STATS_KEY, getAdminStats, {
    // One toast per failure, however often SWR retries (SPEC §8).
    onError: () => toast.error('Failed to load statistics', { id: 'admin-stats-error' }),
  });
}

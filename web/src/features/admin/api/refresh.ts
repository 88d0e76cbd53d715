import { mutate } from 'swr';
import { refreshAudit } from './get-audit';
import { ADMIN_STATS_KEY } from './get-stats';
import { refreshUserPages } from './get-users';

/** SPEC §7: after an admin create, update or delete, the user list and the stats refetch (and the
 * activity log, which records the action). */
export const refreshUsersAndStats = () => Promise.all([refreshUserPages(), mutate(ADMIN_STATS_KEY), refreshAudit()]);

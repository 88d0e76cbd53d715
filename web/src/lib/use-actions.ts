/**
 * The buttons of one row (Approve, Deny, Mark no-show): one write at a time, `busy` naming the one
 * under way; each says how it went in a toast, with the server's detail when it refuses.
 */
import * as React from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api-client';

export function useActions<Action extends string>() {
  const [busy, setBusy] = React.useState<Action | null>(null);
  async function run(action: Action, write: () => Promise<unknown>, done: string, failed: string) {
    setBusy(action);
    try {
      await write();
      toast.success(done);
    } catch (error) {
      toast.error(errorMessage(error, failed));
    } finally {
      setBusy(null);
    }
  }
  return { busy, run };
}

import { Laptop, Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { type DeviceSession, endSession, logoutOtherDevices, useSessions } from '../api/sessions';

const when = (at: string) =>
  new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function Device({ session, onEnd, ending }: { session: DeviceSession; onEnd: () => void; ending: boolean }) {
  const name = session.user_agent || 'Unknown device';
  return (
    <li className="flex items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-navy-900">
          <span className="break-all">{name}</span>
          {session.current ? <Badge variant="secondary">This device</Badge> : null}
        </p>
        <p className="text-xs text-muted-foreground">
          Signed in {when(session.created_at)} · Last seen {when(session.last_seen_at)}
        </p>
      </div>
      {session.current ? null : (
        <Button variant="outline" size="sm" onClick={onEnd} disabled={ending} aria-label={`Sign out ${name}`}>
          {ending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Sign out
        </Button>
      )}
    </li>
  );
}

/** "Signed-in devices": where the person is signed in, with a way to sign any other device out. */
export function SignedInDevicesDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { data: sessions, error } = useSessions(open);
  const [ending, setEnding] = React.useState<string | null>(null);
  const others = sessions?.filter((s) => !s.current).length ?? 0;

  async function run(id: string, action: () => Promise<unknown>, done: string, failed: string) {
    setEnding(id);
    try {
      await action();
      toast.success(done);
    } catch (cause) {
      toast.error(errorMessage(cause, failed));
    } finally {
      setEnding(null);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Signed-in devices</DialogTitle>
          <DialogDescription>Signing a device out ends its session there at once.</DialogDescription>
        </DialogHeader>
        {!sessions ? (
          error ? (
            <p className="py-6 text-center text-sm text-muted-foreground">Failed to load your devices</p>
          ) : (
            <div className="flex h-20 items-center justify-center">
              <Spinner label="Loading your devices" />
            </div>
          )
        ) : (
          <ul aria-label="Devices" className="divide-y">
            {sessions.map((session) => (
              <Device
                key={session.session_id}
                session={session}
                ending={ending === session.session_id}
                onEnd={() =>
                  void run(
                    session.session_id,
                    () => endSession(session.session_id),
                    'Device signed out',
                    'Failed to sign the device out',
                  )
                }
              />
            ))}
          </ul>
        )}
        {others > 0 ? (
          <Button
            variant="destructive"
            disabled={ending !== null}
            onClick={() =>
              void run('all', logoutOtherDevices, 'Signed out of every other device', 'Failed to sign the other devices out')
            }
          >
            {ending === 'all' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Laptop aria-hidden="true" />}
            Sign out all other devices
          </Button>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

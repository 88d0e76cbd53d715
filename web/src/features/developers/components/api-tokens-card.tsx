import { KeyRound, Loader2, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { DashboardCard } from '@/components/cards/dashboard-card';
import { FormDialog } from '@/components/dialogs/form-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { errorMessage } from '@/lib/api-client';
import { useApiTokens } from '../api/get-api-tokens';
import { revokeApiToken } from '../api/revoke-api-token';
import type { ApiToken } from '../api/types';
import { formatDay, formatWhen } from '../utils/format';
import { CreateTokenForm } from './create-token-form';
import { LoadFailed } from './load-failed';

/** "API tokens": the person's tokens (name, scopes, prefix, dates, last use), a new one, a revoke. */
export function ApiTokensCard({ className }: { className?: string }) {
  const { data: tokens, error, isLoading, mutate } = useApiTokens();
  const [revoking, setRevoking] = React.useState<ApiToken | null>(null);

  return (
    <DashboardCard
      className={className}
      title="API tokens"
      titleId="api-tokens-title"
      description="Let a script call the Courtside API as you, without your password, for only what you allow."
      actions={<FormDialog label="New Token">{(close) => <CreateTokenForm close={close} />}</FormDialog>}
      loading={isLoading}
      loadingLabel="Loading your API tokens"
      empty={
        error && !tokens ? (
          <LoadFailed error={error} what="your API tokens" retry={() => void mutate()} />
        ) : tokens?.length === 0 ? (
          <EmptyState
            icon={<KeyRound />}
            title="No API tokens yet"
            description="Create one for each script or system, so you can revoke one without stopping the others."
          />
        ) : undefined
      }
    >
      <ul aria-label="API tokens" className="divide-y">
        {tokens?.map((token) => (
          <TokenRow key={token.token_id} token={token} onRevoke={() => setRevoking(token)} />
        ))}
      </ul>
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </DashboardCard>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const expired = token.expires_at !== null && new Date(token.expires_at).getTime() <= Date.now();
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="grid min-w-0 gap-1.5">
        <p className="flex flex-wrap items-center gap-2">
          <span className="break-words font-semibold text-navy-900">{token.name}</span>
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-navy-800">{token.prefix}…</code>
          {expired ? <Badge variant="secondary">Expired</Badge> : null}
        </p>
        <ul aria-label={`Scopes of ${token.name}`} className="flex flex-wrap gap-1.5">
          {token.scopes.map((scope) => (
            <li key={scope}>
              <Badge variant="outline" className="font-mono font-medium">
                {scope}
              </Badge>
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">
          Created {formatDay(token.created_at)} ·{' '}
          {token.expires_at ? `${expired ? 'Expired' : 'Expires'} ${formatDay(token.expires_at)}` : 'Never expires'} ·{' '}
          {token.last_used_at ? `Last used ${formatWhen(token.last_used_at)}` : 'Never used'}
        </p>
      </div>
      <Button variant="outline" size="sm" className="self-start" onClick={onRevoke} aria-label={`Revoke ${token.name}`}>
        <Trash2 aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}

/** "Revoke this token?": what stops working, with Keep Token and Revoke Token. */
function RevokeTokenDialog({ token, onClose }: { token: ApiToken | null; onClose: () => void }) {
  const [busy, setBusy] = React.useState(false);

  async function revoke() {
    if (!token) return;
    setBusy(true);
    try {
      await revokeApiToken(token.token_id);
      toast.success('Token revoked');
      onClose();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to revoke the token'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={token !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Revoke this token?</DialogTitle>
          <DialogDescription>
            {token ? (
              <>
                Scripts using <strong className="text-navy-900">{token.name}</strong> ({token.prefix}…) stop working at
                once. This cannot be undone.
              </>
            ) : null}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              Keep Token
            </Button>
          </DialogClose>
          <Button variant="destructive" disabled={busy} onClick={() => void revoke()}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
            Revoke Token
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}


import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogForm, TextField } from '@/components/forms/dialog-form';
import { Label } from '@/components/ui/label';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { formatLocalDate } from '@/lib/dates';
import { useUser } from '@/lib/auth';
import { createApiToken } from '../api/create-api-token';
import type { CreatedApiToken } from '../api/types';
import { SCOPE_LEVELS, scopeAreasFor, scopeOf } from '../utils/catalog';
import { endOfLocalDay, formatDay } from '../utils/format';
import { SecretOnce } from './secret-once';

const LEVEL_LABEL = { read: 'Read', write: 'Write' } as const;

/** "New API Token": a name, scopes by area (read, write), an optional last day; then the token,
 * shown this once. */
export function CreateTokenForm({ close }: { close: () => void }) {
  const [created, setCreated] = React.useState<CreatedApiToken | null>(null);
  if (created) return <TokenCreated token={created} close={close} />;
  return <TokenFields onCreated={setCreated} />;
}

function TokenFields({ onCreated }: { onCreated: (token: CreatedApiToken) => void }) {
  const user = useUser();
  const id = React.useId();
  const [name, setName] = React.useState('');
  const [scopes, setScopes] = React.useState<Set<string>>(new Set());
  const [expiresOn, setExpiresOn] = React.useState('');
  const [saving, setSaving] = React.useState(false);

  const toggle = (scope: string) =>
    setScopes((now) => {
      const next = new Set(now);
      if (!next.delete(scope)) next.add(scope);
      return next;
    });

  async function submit() {
    if (!name.trim()) {
      toast.error('Please give the token a name');
      return;
    }
    if (scopes.size === 0) {
      toast.error('Please choose at least one scope');
      return;
    }
    const expires_at = expiresOn ? endOfLocalDay(expiresOn) : null;
    setSaving(true);
    try {
      // In the order the form lists them, whatever order they were ticked in.
      const chosen = scopeAreasFor(user.role)
        .flatMap(({ area }) => SCOPE_LEVELS.map((level) => scopeOf(area, level)))
        .filter((scope) => scopes.has(scope));
      const created = await createApiToken({ name: name.trim(), scopes: chosen, expires_at });
      toast.success('Token created');
      onCreated(created);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create the token'));
      setSaving(false);
    }
  }

  return (
    <DialogForm
      title="New API Token"
      description="A token lets a script call the Courtside API as you, limited to the scopes you choose."
      submitLabel="Create Token"
      saving={saving}
      onSubmit={() => void submit()}
    >
      <TextField
        id={`${id}-name`}
        label="Name"
        placeholder="Club spreadsheet"
        maxLength={80}
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-navy-800">Scopes</legend>
        <p className="text-xs text-muted-foreground">
          Read lets a script see; write lets it change. A script that changes something usually needs both.
        </p>
        <div className="divide-y rounded-md border">
          {scopeAreasFor(user.role).map(({ area, label }) => (
            <div
              key={area}
              role="group"
              aria-labelledby={`${id}-${area}`}
              className="flex flex-wrap items-center justify-between gap-x-4 px-3 py-1"
            >
              <span id={`${id}-${area}`} className="text-sm font-medium text-navy-900">
                {label}
              </span>
              <span className="flex gap-4">
                {SCOPE_LEVELS.map((level) => (
                  <label key={level} className="inline-flex min-h-11 items-center gap-2 text-sm text-navy-800">
                    <input
                      type="checkbox"
                      className="size-4"
                      checked={scopes.has(scopeOf(area, level))}
                      onChange={() => toggle(scopeOf(area, level))}
                    />
                    {LEVEL_LABEL[level]}
                  </label>
                ))}
              </span>
            </div>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-expires`}>Expires on (optional)</Label>
        <Input
          id={`${id}-expires`}
          type="date"
          min={formatLocalDate(new Date())}
          value={expiresOn}
          onChange={(e) => setExpiresOn(e.target.value)}
          aria-describedby={`${id}-expires-hint`}
        />
        <p id={`${id}-expires-hint`} className="text-xs text-muted-foreground">
          The token works through the end of that day. Leave it empty for a token that works until you revoke it.
        </p>
      </div>
    </DialogForm>
  );
}

function TokenCreated({ token, close }: { token: CreatedApiToken; close: () => void }) {
  return (
    <div className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>Token created</DialogTitle>
        <DialogDescription>
          {token.name}: {token.scopes.join(', ')}
          {token.expires_at ? `, until ${formatDay(token.expires_at)}` : ''}.
        </DialogDescription>
      </DialogHeader>
      <SecretOnce label="Your new token" secret={token.token} copied="Token copied">
        <p className="text-sm text-navy-700">
          Send it as <code className="rounded bg-muted px-1 font-mono text-xs">Authorization: Bearer {token.prefix}…</code>{' '}
          with each call to <code className="rounded bg-muted px-1 font-mono text-xs">/api</code>. Courtside keeps only
          a hash of it: if you lose it, revoke it and create another.
        </p>
      </SecretOnce>
      <DialogFooter>
        <Button variant="accent" onClick={close}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}

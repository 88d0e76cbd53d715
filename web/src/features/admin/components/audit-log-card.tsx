import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { type AuditChange, type AuditEntry, useAuditPages } from '../api/get-audit';

const VERBS: Record<string, string> = {
  user_created: 'created',
  user_updated: 'updated',
  user_deleted: 'deleted',
};

const FIELDS: Record<string, string> = {
  email: 'Email',
  full_name: 'Name',
  phone: 'Phone',
  role: 'Role',
};

const when = (at: string) =>
  new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** One change as a person reads it: "Name: Old → New"; a password only as "password changed". */
export function describeChange(change: AuditChange, action: string): string {
  if (change.field === 'password') return action === 'user_created' ? 'password set' : 'password changed';
  const field = FIELDS[change.field] ?? change.field;
  const old = change.old ?? '—';
  const now = change.new ?? '—';
  if (action === 'user_created') return `${field}: ${now}`;
  if (action === 'user_deleted') return `${field}: ${old}`;
  return `${field}: ${old} → ${now}`;
}

function Entry({ entry }: { entry: AuditEntry }) {
  return (
    <li className="grid gap-1 py-3">
      <p className="text-sm text-navy-900">
        <span className="font-semibold">{entry.admin_name}</span> {VERBS[entry.action] ?? entry.action}{' '}
        <span className="break-all font-semibold">{entry.target_label}</span>
      </p>
      {entry.changes.length > 0 ? (
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
          {entry.changes.map((change) => (
            <li key={change.field}>{describeChange(change, entry.action)}</li>
          ))}
        </ul>
      ) : null}
      <p className="text-xs text-muted-foreground">
        <time dateTime={entry.at}>{when(entry.at)}</time>
        {entry.request_id ? <span className="ml-2 font-mono">request {entry.request_id}</span> : null}
      </p>
    </li>
  );
}

/** "Activity log": every admin action on users, newest first (who, what, when, which fields). */
export function AuditLogCard({ className }: { className?: string }) {
  const { entries, error, hasMore, loadMore, loadingMore } = useAuditPages();
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Activity log</CardTitle>
        <CardDescription>Every admin action on users, newest first. Entries cannot be changed.</CardDescription>
      </CardHeader>
      <CardContent>
        {!entries ? (
          error ? (
            <p className="py-8 text-center text-sm text-muted-foreground">Failed to load the activity log</p>
          ) : (
            <div className="flex h-24 items-center justify-center">
              <Spinner label="Loading the activity log" />
            </div>
          )
        ) : entries.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No admin actions yet.
          </p>
        ) : (
          <>
            <ul aria-label="Admin actions" className="divide-y">
              {entries.map((entry) => (
                <Entry key={entry.audit_id} entry={entry} />
              ))}
            </ul>
            {hasMore ? (
              <Button variant="outline" size="sm" className="mt-3" onClick={loadMore} disabled={loadingMore}>
                {loadingMore ? 'Loading more…' : 'Load more'}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

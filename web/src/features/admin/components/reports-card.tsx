import { Flag, ShieldOff } from 'lucide-react';
import * as React from 'react';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { MAX_SUSPEND_REASON, suspendUser, useReports, type MessageReport, type ReportedMessage } from '../api/reports';

const when = (at: string) => new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Reports": the messages people reported, newest first, each in its context, with Suspend. */
export function ReportsCard({ className }: { className?: string }) {
  const { rows, error, isLoading, hasMore, loadMore, loadingMore } = useReports();
  const [suspending, setSuspending] = React.useState<MessageReport | null>(null);
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Reports</CardTitle>
        <CardDescription>
          Messages people reported, newest first, with the messages around them. Suspending a sender ends their
          sessions at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!rows ? (
          error ? (
            <p role="alert" className="py-8 text-center text-sm text-muted-foreground">
              Failed to load the reports
            </p>
          ) : isLoading ? (
            <div className="flex h-24 items-center justify-center">
              <Spinner label="Loading reports" />
            </div>
          ) : null
        ) : rows.length === 0 ? (
          <EmptyState icon={<Flag />} title="No reports" description="Nobody has reported a message." />
        ) : (
          <>
            <ul aria-label="Reported messages" className="grid gap-4">
              {rows.map((report) => (
                <ReportItem key={report.report_id} report={report} onSuspend={() => setSuspending(report)} />
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
      <DialogWhileOpen open={suspending !== null} onOpenChange={(open) => !open && setSuspending(null)}>
        {(close) => (suspending ? <SuspendForm report={suspending} close={close} /> : null)}
      </DialogWhileOpen>
    </Card>
  );
}

/** The reported message among the ones around it, oldest first (whether or not the context
 * already holds it). */
function inContext(report: MessageReport): ReportedMessage[] {
  const others = report.context.filter((m) => m.message_id !== report.message.message_id);
  return [...others, report.message].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

function ReportItem({ report, onSuspend }: { report: MessageReport; onSuspend: () => void }) {
  const { sender } = report;
  const headingId = React.useId();
  return (
    <li className="rounded-lg border p-4" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1 text-sm">
          <p id={headingId} className="font-semibold text-navy-900">
            {report.reporter.full_name} reported {sender.full_name}
          </p>
          <p className="break-words text-navy-800">
            <span className="font-medium">Reason:</span> {report.reason}
          </p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={report.created_at}>{when(report.created_at)}</time>
          </p>
        </div>
        {sender.suspended ? (
          <Badge variant="destructive">Suspended</Badge>
        ) : sender.user_id ? (
          <Button variant="outline" size="sm" className="text-destructive hover:bg-red-50" onClick={onSuspend}>
            <ShieldOff aria-hidden="true" />
            Suspend {sender.full_name}
          </Button>
        ) : null}
      </div>
      <ol aria-label={`The reported message from ${sender.full_name} in context`} className="mt-3 grid gap-1.5">
        {inContext(report).map((message) => (
          <ContextLine
            key={message.message_id}
            message={message}
            reported={message.message_id === report.message.message_id}
          />
        ))}
      </ol>
    </li>
  );
}

/** One message of the context as plain text (a link is not followed from here). */
function ContextLine({ message, reported }: { message: ReportedMessage; reported: boolean }) {
  return (
    <li
      className={cn(
        'rounded-md px-3 py-1.5 text-sm',
        reported ? 'border-l-4 border-red-500 bg-red-50 text-navy-900' : 'bg-navy-50/60 text-navy-700',
      )}
      aria-current={reported ? 'true' : undefined}
    >
      <p className="text-xs text-muted-foreground">
        {reported ? <span className="mr-1 font-semibold text-red-700">Reported:</span> : null}
        <span className="font-medium">{message.sender.full_name}</span>, <time dateTime={message.created_at}>{when(message.created_at)}</time>
      </p>
      <p className="whitespace-pre-wrap break-words">{message.body}</p>
    </li>
  );
}

function SuspendForm({ report, close }: { report: MessageReport; close: () => void }) {
  const [reason, setReason] = React.useState(`Reported message: ${report.reason}`.slice(0, MAX_SUSPEND_REASON));
  const { saving, save } = useSave(close);
  const id = React.useId();
  const name = report.sender.full_name;
  return (
    <DialogForm
      title={`Suspend ${name}?`}
      description="Their sessions and API tokens end at once and they cannot sign in. The suspension is recorded in the activity log."
      submitLabel="Suspend"
      submitVariant="destructive"
      saving={saving}
      cancel={{ label: 'Cancel', onClick: close }}
      onSubmit={() =>
        void save(() => suspendUser(report.sender.user_id as string, reason), `${name} suspended`, 'Failed to suspend')
      }
    >
      {/* One line: the API keeps a reason on one line. */}
      <TextField
        id={`${id}-reason`}
        label="Reason"
        value={reason}
        required
        maxLength={MAX_SUSPEND_REASON}
        onChange={(event) => setReason(event.target.value)}
      />
    </DialogForm>
  );
}

import { AlertTriangle, CalendarPlus, Check, Copy, ExternalLink, Loader2, RefreshCw } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useCalendarFeed, webcalUrl } from '../api/get-calendar-feed';
import { resetCalendarFeed } from '../api/reset-calendar-feed';

/**
 * "Your Calendar" on every dashboard: "Subscribe to my calendar" opens the person's feed address
 * to copy into their calendar app (or open there), and a reset, confirmed first, for an address
 * that got out.
 */
export function CalendarSubscriptionCard({ className }: { className?: string }) {
  const [open, setOpen] = React.useState(false);

  return (
    <Card className={cn('flex flex-col', className)}>
      <CardHeader className="flex-1 gap-4">
        <div className="space-y-1.5">
          <CardTitle>Your Calendar</CardTitle>
          <CardDescription>
            See your sessions in Google Calendar, Apple Calendar or Outlook, kept up to date as they change.
          </CardDescription>
        </div>
        <Button variant="outline" className="self-start" onClick={() => setOpen(true)}>
          <CalendarPlus aria-hidden="true" />
          Subscribe to my calendar
        </Button>
      </CardHeader>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-lg">{open ? <SubscriptionPanel /> : null}</DialogContent>
      </Dialog>
    </Card>
  );
}

function SubscriptionPanel() {
  const { data: feed, error, isLoading, mutate } = useCalendarFeed(true);
  const [confirming, setConfirming] = React.useState(false);

  if (confirming) return <ResetConfirmation onDone={() => setConfirming(false)} />;

  return (
    <div className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>Subscribe to my calendar</DialogTitle>
        <DialogDescription>
          Add this link to your calendar app as a subscription: “From URL” in Google Calendar, “New Calendar
          Subscription” in Apple Calendar, “Subscribe from web” in Outlook. Your sessions appear there and follow
          every change.
        </DialogDescription>
      </DialogHeader>
      {isLoading ? (
        <div className="flex justify-center py-4">
          <Spinner label="Loading your calendar link" />
        </div>
      ) : error || !feed ? (
        <div role="alert" className="grid gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p>{errorMessage(error, 'Could not load your calendar link. Please try again.')}</p>
          <Button size="sm" variant="outline" className="self-start" onClick={() => void mutate()}>
            <RefreshCw aria-hidden="true" />
            Try Again
          </Button>
        </div>
      ) : feed.url ? (
        <FeedLink url={feed.url} />
      ) : (
        <p className="text-sm text-navy-800">
          You have a calendar link already. For your safety it is shown only when it is made: calendars subscribed
          to it keep updating. To subscribe another calendar, reset it and use the new link everywhere.
        </p>
      )}
      <p className="flex gap-2 text-sm text-navy-700">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-yellow-700" aria-hidden="true" />
        <span>Anyone with this link can see your sessions. If it gets out, reset it.</span>
      </p>
      <DialogFooter>
        <Button variant="outline" disabled={!feed} onClick={() => setConfirming(true)}>
          <RefreshCw aria-hidden="true" />
          Reset Link
        </Button>
      </DialogFooter>
    </div>
  );
}

function FeedLink({ url }: { url: string }) {
  const id = React.useId();
  const input = React.useRef<HTMLInputElement>(null);
  const [copied, setCopied] = React.useState(false);

  React.useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast.success('Calendar link copied');
    } catch {
      // No clipboard (an insecure origin, a refused permission): leave it selected to copy by hand.
      input.current?.select();
      toast.error('Could not copy the link. It is selected: copy it with your keyboard or menu.');
    }
  }

  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={`${id}-url`}>Calendar link</Label>
      <div className="flex min-w-0 flex-col gap-2 sm:flex-row">
        <Input
          ref={input}
          id={`${id}-url`}
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 font-mono text-xs sm:text-xs"
          data-testid="calendar-feed-url"
        />
        <Button variant="accent" onClick={() => void copy()} className="sm:w-auto">
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy Link'}
        </Button>
      </div>
      <Button asChild variant="link" className="h-auto justify-start px-0 py-1">
        <a href={webcalUrl(url)}>
          <ExternalLink aria-hidden="true" />
          Open in my calendar app
        </a>
      </Button>
    </div>
  );
}

function ResetConfirmation({ onDone }: { onDone: () => void }) {
  const [busy, setBusy] = React.useState(false);

  async function reset() {
    setBusy(true);
    try {
      await resetCalendarFeed();
      toast.success('Calendar link reset');
      onDone();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to reset calendar link'));
      setBusy(false);
    }
  }

  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Reset your calendar link?</DialogTitle>
        <DialogDescription>
          The current link stops working at once: calendars subscribed to it stop updating until you subscribe again
          with the new link.
        </DialogDescription>
      </DialogHeader>
      <DialogFooter>
        <Button variant="outline" disabled={busy} onClick={onDone}>
          Keep Current Link
        </Button>
        <Button variant="destructive" disabled={busy} onClick={() => void reset()}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
          Reset Link
        </Button>
      </DialogFooter>
    </div>
  );
}

import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

/** A list that could not be read: the server's reason (else a plain one) and Try Again. */
export function LoadFailed({ error, what, retry }: { error: unknown; what: string; retry: () => void }) {
  return (
    <div role="alert" className="grid gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p>{errorMessage(error, `Could not load ${what}. Please try again.`)}</p>
      <Button size="sm" variant="outline" className="self-start" onClick={retry}>
        <RefreshCw aria-hidden="true" />
        Try Again
      </Button>
    </div>
  );
}

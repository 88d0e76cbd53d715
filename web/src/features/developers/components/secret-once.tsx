import { Check, Copy, KeyRound } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

interface SecretOnceProps {
  /** The field's label: "Your new token", "Signing secret". */
  label: string;
  secret: string;
  /** What the copy's toast says: "Token copied". */
  copied: string;
  /** A line under the warning (how to use it). */
  children?: React.ReactNode;
}

/**
 * A secret the server shows this once (a token, a webhook's signing secret): read-only, selected
 * on focus, a Copy button, and a plain warning that it will not be shown again.
 */
export function SecretOnce({ label, secret, copied: copiedText, children }: SecretOnceProps) {
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
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      toast.success(copiedText);
    } catch {
      // No clipboard (an insecure origin, a refused permission): leave it selected to copy by hand.
      input.current?.select();
      toast.error('Could not copy it. It is selected: copy it with your keyboard or menu.');
    }
  }

  return (
    <div className="grid min-w-0 gap-3">
      <div className="grid min-w-0 gap-2">
        <Label htmlFor={`${id}-secret`}>{label}</Label>
        <div className="flex min-w-0 flex-col gap-2 sm:flex-row">
          <Input
            ref={input}
            id={`${id}-secret`}
            readOnly
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            className="min-w-0 font-mono text-xs sm:text-xs"
            data-testid="secret-once"
            aria-describedby={`${id}-warning`}
          />
          <Button variant="accent" onClick={() => void copy()}>
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
      </div>
      <p
        id={`${id}-warning`}
        className="flex gap-2 rounded-md border border-yellow-200 bg-yellow-50 p-3 text-sm text-yellow-900"
      >
        <KeyRound className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <strong>Copy it now: you will not see it again.</strong>
      </p>
      {children}
    </div>
  );
}

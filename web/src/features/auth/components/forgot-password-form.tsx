import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { forgotPassword } from '../api/forgot-password';

/** Email → a reset link by email. Says the same whether or not the email has an account. */
export function ForgotPasswordForm() {
  const [email, setEmail] = React.useState('');
  const [sentTo, setSentTo] = React.useState<string | null>(null);
  const [submitting, setSubmitting] = React.useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim()) return;
    setSubmitting(true);
    try {
      await forgotPassword(email.trim());
      setSentTo(email.trim());
    } catch (error) {
      toast.error(errorMessage(error, 'The reset link could not be sent. Please try again.'));
    } finally {
      setSubmitting(false);
    }
  }

  if (sentTo) {
    return (
      <p role="status" className="text-sm text-navy-800">
        If an account exists for <strong>{sentTo}</strong>, we have emailed it a link to choose a new password. The
        link works for 30 minutes.
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Forgot password">
      <div className="space-y-2">
        <Label htmlFor="forgot-email">Email</Label>
        <Input
          id="forgot-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@example.com"
        />
      </div>
      <Button type="submit" variant="accent" size="lg" className="w-full" disabled={submitting}>
        {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        Email me a reset link
      </Button>
    </form>
  );
}

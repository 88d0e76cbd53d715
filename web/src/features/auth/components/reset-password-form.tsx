import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { MIN_PASSWORD_LENGTH, PASSWORD_HINT, SHORT_PASSWORD } from '@/lib/password';
import { resetPassword } from '../api/reset-password';


/** A new password (twice) for the emailed link's `token`; then to the login page. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = React.useState('');
  const [confirm, setConfirm] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);
  const [submitting, setSubmitting] = React.useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password.length < MIN_PASSWORD_LENGTH) return setProblem(SHORT_PASSWORD);
    if (password !== confirm) return setProblem('The two passwords differ.');
    setProblem(null);
    setSubmitting(true);
    try {
      await resetPassword(token, password);
      toast.success('Password changed. Sign in with your new password.');
      navigate(paths.login.getHref(), { replace: true });
    } catch (error) {
      setProblem(errorMessage(error, 'The password could not be changed. Please try again.'));
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Reset password" noValidate>
      <div className="space-y-2">
        <Label htmlFor="reset-password">New password</Label>
        <Input
          id="reset-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="reset-password-hint"
        />
        <p id="reset-password-hint" className="text-xs text-muted-foreground">
          {PASSWORD_HINT}
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="reset-confirm">Confirm new password</Label>
        <Input
          id="reset-confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      <Button type="submit" variant="accent" size="lg" className="w-full" disabled={submitting}>
        {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        Change password
      </Button>
    </form>
  );
}

import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SelectField } from '@/components/forms/select-field';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_HINT } from '@/lib/password';
import { postRegisterPathFor, useAuth, type RegisterInput } from '@/lib/auth';

type SignupRole = RegisterInput['role'];

const ROLE_OPTIONS: { value: SignupRole; label: string }[] = [
  { value: 'client', label: 'Client' },
  { value: 'coach', label: 'Coach' },
  { value: 'gym', label: 'Gym' },
];

/** Full name, email, optional phone, password and role (default client) → the new account. */
export function RegisterForm() {
  const { register } = useAuth();
  const navigate = useNavigate();
  const [form, setForm] = React.useState({ full_name: '', email: '', phone: '', password: '' });
  const [role, setRole] = React.useState<SignupRole>('client');
  const [submitting, setSubmitting] = React.useState(false);

  const field =
    (name: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.full_name.trim() || !form.email.trim() || !form.password) return;
    setSubmitting(true);
    try {
      const user = await register({
        full_name: form.full_name.trim(),
        email: form.email.trim(),
        phone: form.phone.trim() || null,
        password: form.password,
        role,
      });
      toast.success('Account created successfully!');
      navigate(postRegisterPathFor(user.role), { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Registration failed'));
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Register">
      <div className="space-y-2">
        <Label htmlFor="register-full-name">Full Name</Label>
        <Input
          id="register-full-name"
          name="full_name"
          autoComplete="name"
          required
          value={form.full_name}
          onChange={field('full_name')}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="register-email">Email</Label>
        <Input
          id="register-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={field('email')}
          placeholder="you@example.com"
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="register-phone">Phone (Optional)</Label>
        <Input
          id="register-phone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={form.phone}
          onChange={field('phone')}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="register-password">Password</Label>
        <Input
          id="register-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={form.password}
          onChange={field('password')}
          aria-describedby="register-password-hint"
        />
        <p id="register-password-hint" className="text-xs text-muted-foreground">
          {PASSWORD_HINT}
        </p>
      </div>
      <SelectField
        id="register-role"
        label="I am a..."
        value={role}
        onChange={(value) => setRole(value as SignupRole)}
        options={ROLE_OPTIONS}
      />
      <Button type="submit" variant="accent" size="lg" className="w-full" disabled={submitting}>
        {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        Create Account
      </Button>
    </form>
  );
}

import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
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
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_HINT } from '@/lib/password';
import { createUser, createUserProblem, type CreateUserInput } from '../api/create-user';
import { RoleSelect } from './role-select';

interface CreateUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** "Create New User": email, password, full name, phone and role (client by default). */
export function CreateUserDialog({ open, onOpenChange }: CreateUserDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open ? <CreateUserForm onDone={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

function CreateUserForm({ onDone }: { onDone: () => void }) {
  const [form, setForm] = React.useState({ email: '', password: '', full_name: '', phone: '' });
  const [role, setRole] = React.useState<CreateUserInput['role']>('client');
  const [saving, setSaving] = React.useState(false);
  const set = (name: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input: CreateUserInput = {
      email: form.email.trim(),
      password: form.password,
      full_name: form.full_name.trim(),
      phone: form.phone.trim() || null,
      role,
    };
    const problem = createUserProblem(input);
    if (problem) {
      toast.error(problem);
      return;
    }
    setSaving(true);
    try {
      await createUser(input);
      toast.success('User created successfully');
      onDone();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create user'));
      setSaving(false);
    }
  }

  return (
    // noValidate: SPEC §5's messages, not the browser's, explain what is missing.
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Create New User</DialogTitle>
        <DialogDescription>The new user signs in with this email and password.</DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="new-user-email">Email</Label>
        <Input id="new-user-email" type="email" inputMode="email" autoComplete="off" value={form.email} onChange={set('email')} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="new-user-password">Password</Label>
        <Input
          id="new-user-password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          aria-describedby="new-user-password-hint"
        />
        <p id="new-user-password-hint" className="text-xs text-muted-foreground">
          {PASSWORD_HINT}
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="new-user-name">Full Name</Label>
        <Input id="new-user-name" autoComplete="off" value={form.full_name} onChange={set('full_name')} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="new-user-phone">Phone (optional)</Label>
          <Input id="new-user-phone" type="tel" inputMode="tel" autoComplete="off" value={form.phone} onChange={set('phone')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="new-user-role">Role</Label>
          <RoleSelect id="new-user-role" value={role} onChange={setRole} />
        </div>
      </div>
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Create User
        </Button>
      </DialogFooter>
    </form>
  );
}

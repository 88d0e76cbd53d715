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
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { SHORT_PASSWORD } from '@/lib/password';
import { MIN_PASSWORD_LENGTH } from '../api/create-user';
import { useUserDetail } from '../api/get-user';
import type { User, UserDetail } from '../api/types';
import { updateUser, userChanges, type EditUserForm } from '../api/update-user';
import { formatCreated } from '../utils/users';
import { RoleBadge } from './role-badge';
import { RoleSelect } from './role-select';

/** "User Details": who the user is, their totals and profile, and the edit form. */
export function UserDetailsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>User Details</DialogTitle>
          <DialogDescription>View this account and change what needs changing.</DialogDescription>
        </DialogHeader>
        {/* Keyed by user so the form starts afresh for each one. */}
        {user ? <UserDetails key={user.user_id} user={user} onSaved={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function UserDetails({ user, onSaved }: { user: User; onSaved: () => void }) {
  const { data: detail, isLoading } = useUserDetail(user.user_id);
  return (
    <div className="grid gap-5">
      <Summary user={user} detail={detail} loading={isLoading} />
      <EditForm user={user} onSaved={onSaved} />
    </div>
  );
}

const notSet = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? 'Not set' : String(value);

function Summary({ user, detail, loading }: { user: User; detail: UserDetail | undefined; loading: boolean }) {
  const profile = detail?.profile;
  return (
    <section aria-label="Account" className="space-y-3 rounded-lg bg-muted/60 p-4 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        <dt className="text-muted-foreground">User ID</dt>
        <dd className="break-all font-mono text-xs text-navy-900">{user.user_id}</dd>
        <dt className="text-muted-foreground">Created</dt>
        <dd className="text-navy-900">{formatCreated(user.created_at)}</dd>
        <dt className="text-muted-foreground">Role</dt>
        <dd>
          <RoleBadge role={user.role} />
        </dd>
        {detail?.total_bookings !== undefined ? (
          <>
            <dt className="text-muted-foreground">Total Bookings</dt>
            <dd className="font-semibold text-navy-900">{detail.total_bookings}</dd>
          </>
        ) : null}
        {detail?.total_locations !== undefined ? (
          <>
            <dt className="text-muted-foreground">Total Locations</dt>
            <dd className="font-semibold text-navy-900">{detail.total_locations}</dd>
          </>
        ) : null}
      </dl>
      {loading ? <Spinner className="size-5" label="Loading user details" /> : null}
      {user.role === 'client' && profile ? (
        <div className="border-t pt-3">
          <h3 className="mb-2 font-semibold text-navy-900">Client Profile</h3>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
            {(
              [
                ['Age', profile.age],
                ['Grade', profile.grade],
                ['Sport', profile.sport],
                ['Skill Level', profile.skill_level],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className="text-xs text-muted-foreground">{label}</dt>
                <dd className="font-medium capitalize text-navy-900">{notSet(value)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </section>
  );
}

function EditForm({ user, onSaved }: { user: User; onSaved: () => void }) {
  const [form, setForm] = React.useState<EditUserForm>(() => ({
    full_name: user.full_name,
    email: user.email,
    phone: user.phone ?? '',
    role: user.role,
    password: '',
  }));
  const [saving, setSaving] = React.useState(false);
  const set = (name: 'full_name' | 'email' | 'phone' | 'password') => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [name]: event.target.value }));
  const shortPassword = form.password.length > 0 && form.password.length < MIN_PASSWORD_LENGTH;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changes = userChanges(user, form);
    if (Object.keys(changes).length === 0) {
      toast.info('No changes to save');
      return;
    }
    setSaving(true);
    try {
      await updateUser(user.user_id, changes);
      toast.success('User updated successfully');
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update user'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Edit user">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="edit-user-name">Full Name</Label>
          <Input id="edit-user-name" autoComplete="off" value={form.full_name} onChange={set('full_name')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="edit-user-email">Email</Label>
          <Input id="edit-user-email" type="email" inputMode="email" autoComplete="off" value={form.email} onChange={set('email')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="edit-user-phone">Phone (optional)</Label>
          <Input id="edit-user-phone" type="tel" inputMode="tel" autoComplete="off" value={form.phone} onChange={set('phone')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="edit-user-role">Role</Label>
          <RoleSelect id="edit-user-role" value={form.role} onChange={(role) => setForm((c) => ({ ...c, role }))} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="edit-user-password">New Password (optional)</Label>
        <Input
          id="edit-user-password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          aria-describedby={shortPassword ? 'edit-user-password-hint' : undefined}
          aria-invalid={shortPassword || undefined}
        />
        {shortPassword ? (
          <p id="edit-user-password-hint" className="text-xs text-destructive">
            {SHORT_PASSWORD}
          </p>
        ) : null}
      </div>
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Update User
        </Button>
      </DialogFooter>
    </form>
  );
}

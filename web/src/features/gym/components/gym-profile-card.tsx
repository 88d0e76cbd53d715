import { Building2, Loader2, Pencil, Phone, Plus } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useGymProfile } from '../api/get-gym-profile';
import { saveGymProfile, type GymProfileInput } from '../api/save-gym-profile';
import type { GymProfile } from '../api/types';

/** "Gym Profile" on the gym dashboard: view, create (POST) or edit (PUT) the gym's profile. */
export function GymProfileCard({ className }: { className?: string }) {
  const user = useUser();
  const { data: profile, isLoading } = useGymProfile(user.user_id);
  const [open, setOpen] = React.useState(false);
  const exists = Boolean(profile);
  const action = exists ? 'Edit Profile' : 'Create Profile';

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Gym Profile</CardTitle>
          <CardDescription>How coaches see your gym.</CardDescription>
        </div>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant={exists ? 'outline' : 'accent'} size="sm" disabled={isLoading}>
              {exists ? <Pencil aria-hidden="true" /> : <Plus aria-hidden="true" />}
              {action}
            </Button>
          </DialogTrigger>
          <DialogContent>
            {open ? (
              <GymProfileForm
                title={action}
                userId={user.user_id}
                profile={profile ?? null}
                onSaved={() => setOpen(false)}
              />
            ) : null}
          </DialogContent>
        </Dialog>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading gym profile" />
          </div>
        ) : profile ? (
          <div className="space-y-3">
            <p className="flex items-center gap-2 text-lg font-bold text-navy-900">
              <Building2 className="size-5 text-court-700" aria-hidden="true" />
              {profile.gym_name}
            </p>
            {profile.description ? (
              <p className="whitespace-pre-line text-sm leading-relaxed text-navy-800">{profile.description}</p>
            ) : null}
            {profile.phone ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Phone className="size-4" aria-hidden="true" />
                {profile.phone}
              </p>
            ) : null}
          </div>
        ) : (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center">
            <Building2 className="size-8 text-navy-300" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">
              No gym profile yet. Click "Create Profile" to get started.
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function GymProfileForm({
  title,
  userId,
  profile,
  onSaved,
}: {
  title: string;
  userId: string;
  profile: GymProfile | null;
  onSaved: () => void;
}) {
  const [form, setForm] = React.useState<GymProfileInput>(() => ({
    gym_name: profile?.gym_name ?? '',
    description: profile?.description ?? '',
    phone: profile?.phone ?? '',
  }));
  const [saving, setSaving] = React.useState(false);
  const set =
    (name: keyof GymProfileInput) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      await saveGymProfile(userId, form, profile !== null);
      toast.success(profile ? 'Profile updated successfully' : 'Profile created successfully');
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to save profile'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>Your gym's name, what it offers and how to reach it.</DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="gym-name">Gym Name</Label>
        <Input id="gym-name" autoComplete="organization" value={form.gym_name} onChange={set('gym_name')} placeholder="Downtown Athletic Club" />
      </div>
      <div className="space-y-2">
        <Label htmlFor="gym-description">Description</Label>
        <Textarea id="gym-description" value={form.description} onChange={set('description')} placeholder="Courts, hours, amenities" />
      </div>
      <div className="space-y-2">
        <Label htmlFor="gym-phone">Phone</Label>
        <Input id="gym-phone" type="tel" inputMode="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} />
      </div>
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Profile
        </Button>
      </DialogFooter>
    </form>
  );
}

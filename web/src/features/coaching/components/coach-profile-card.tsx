import { Loader2, Pencil, Plus, UserRound } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { TimeZoneField, timeZoneProblem } from '@/components/forms/time-zone-field';
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
import { formatAmount } from '@/lib/format';
import { browserTimeZone } from '@/lib/zoned-time';
import { useCoachProfile } from '../api/get-coach-profile';
import { saveCoachProfile, toCoachProfileInput, type CoachProfileForm } from '../api/save-coach-profile';
import type { CoachProfile } from '../api/types';
import { SpecialtyBadges } from './specialty-badges';

/** "Your Profile" on the coach dashboard: view, create (POST) or edit (PUT) the coach profile. */
export function CoachProfileCard() {
  const user = useUser();
  // SPEC §7: a 404 means "no profile yet" (the hook answers null); other failures are logged.
  const { data: profile, isLoading } = useCoachProfile(user.user_id, {
    onError: (error) => console.error('Failed to load coach profile', error),
  });
  const [open, setOpen] = React.useState(false);
  const exists = Boolean(profile);
  const action = exists ? 'Edit Profile' : 'Create Profile';

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Your Profile</CardTitle>
          <CardDescription>What clients see when they look you up.</CardDescription>
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
              <ProfileForm
                title={action}
                coachId={user.user_id}
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
            <Spinner label="Loading profile" />
          </div>
        ) : profile ? (
          <ProfileView profile={profile} />
        ) : (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center">
            <UserRound className="size-8 text-navy-300" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">
              No profile created yet. Click "Create Profile" to get started.
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function ProfileView({ profile }: { profile: CoachProfile }) {
  return (
    <div className="space-y-4">
      <p className="whitespace-pre-line text-sm leading-relaxed text-navy-800">{profile.bio}</p>
      <SpecialtyBadges specialties={profile.specialties ?? []} />
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-muted/60 p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Hourly Rate</dt>
          <dd className="mt-1 text-lg font-bold text-navy-900">${formatAmount(profile.hourly_rate)}/hour</dd>
        </div>
        <div className="rounded-lg bg-muted/60 p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Experience</dt>
          <dd className="mt-1 text-lg font-bold text-navy-900">{profile.years_experience} years</dd>
        </div>
        <div className="col-span-2 rounded-lg bg-muted/60 p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Time zone</dt>
          <dd className="mt-1 font-semibold break-words text-navy-900">{profile.time_zone}</dd>
        </div>
      </dl>
    </div>
  );
}

function ProfileForm({
  title,
  coachId,
  profile,
  onSaved,
}: {
  title: string;
  coachId: string;
  profile: CoachProfile | null;
  onSaved: () => void;
}) {
  const [form, setForm] = React.useState<CoachProfileForm>(() => ({
    bio: profile?.bio ?? '',
    specialties: (profile?.specialties ?? []).join(', '),
    hourly_rate: profile ? String(profile.hourly_rate) : '',
    years_experience: profile ? String(profile.years_experience) : '',
    // A new profile takes the browser's zone (issue 16); an existing one keeps its own.
    time_zone: profile?.time_zone ?? browserTimeZone(),
  }));
  const [zoneError, setZoneError] = React.useState<string | null>(null);
  const [saving, setSaving] = React.useState(false);
  const set =
    (name: keyof CoachProfileForm) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = timeZoneProblem(form.time_zone);
    setZoneError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await saveCoachProfile(coachId, toCoachProfileInput(form), profile !== null);
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
        <DialogDescription>Tell athletes about your coaching, specialties and rate.</DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="profile-bio">Bio</Label>
        <Textarea id="profile-bio" value={form.bio} onChange={set('bio')} placeholder="Your coaching background and approach" />
      </div>
      <div className="space-y-2">
        <Label htmlFor="profile-specialties">Specialties (comma-separated)</Label>
        <Input
          id="profile-specialties"
          value={form.specialties}
          onChange={set('specialties')}
          placeholder="Shooting, Ball Handling, Volleyball Serve"
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-2">
          <Label htmlFor="profile-rate">Hourly Rate ($)</Label>
          <Input id="profile-rate" type="number" inputMode="decimal" min="0" step="0.01" value={form.hourly_rate} onChange={set('hourly_rate')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="profile-years">Years of Experience</Label>
          <Input id="profile-years" type="number" inputMode="numeric" min="0" step="1" value={form.years_experience} onChange={set('years_experience')} />
        </div>
      </div>
      <TimeZoneField
        id="profile-time-zone"
        label="Time zone"
        value={form.time_zone}
        onChange={(time_zone) => setForm((current) => ({ ...current, time_zone }))}
        hint="Sessions without a location are at this zone's time."
        error={zoneError}
      />
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Profile
        </Button>
      </DialogFooter>
    </form>
  );
}

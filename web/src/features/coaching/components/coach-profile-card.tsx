import { UserRound } from 'lucide-react';
import * as React from 'react';
import { ProfileCard } from '@/components/cards/profile-card';
import { DialogForm, TextAreaField, TextField, useSave } from '@/components/forms/dialog-form';
import { TimeZoneField, timeZoneProblem } from '@/components/forms/time-zone-field';
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

  return (
    <ProfileCard
      title="Your Profile"
      description="What clients see when they look you up."
      loading={isLoading}
      loadingLabel="Loading profile"
      exists={Boolean(profile)}
      emptyIcon={UserRound}
      emptyText='No profile created yet. Click "Create Profile" to get started.'
      form={(title, close) => (
        <ProfileForm title={title} coachId={user.user_id} profile={profile ?? null} onSaved={close} />
      )}
    >
      {profile ? <ProfileView profile={profile} /> : null}
    </ProfileCard>
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
  const { saving, save } = useSave(onSaved);
  const set =
    (name: keyof CoachProfileForm) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value }));

  function onSubmit() {
    const problem = timeZoneProblem(form.time_zone);
    setZoneError(problem);
    if (problem) return;
    void save(
      () => saveCoachProfile(coachId, toCoachProfileInput(form), profile !== null),
      profile ? 'Profile updated successfully' : 'Profile created successfully',
      'Failed to save profile',
    );
  }

  return (
    <DialogForm
      title={title}
      description="Tell athletes about your coaching, specialties and rate."
      submitLabel="Save Profile"
      saving={saving}
      onSubmit={onSubmit}
    >
      <TextAreaField
        id="profile-bio"
        label="Bio"
        value={form.bio}
        onChange={set('bio')}
        placeholder="Your coaching background and approach"
      />
      <TextField
        id="profile-specialties"
        label="Specialties (comma-separated)"
        value={form.specialties}
        onChange={set('specialties')}
        placeholder="Shooting, Ball Handling, Volleyball Serve"
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          id="profile-rate"
          label="Hourly Rate ($)"
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          value={form.hourly_rate}
          onChange={set('hourly_rate')}
        />
        <TextField
          id="profile-years"
          label="Years of Experience"
          type="number"
          inputMode="numeric"
          min="0"
          step="1"
          value={form.years_experience}
          onChange={set('years_experience')}
        />
      </div>
      <TimeZoneField
        id="profile-time-zone"
        label="Time zone"
        value={form.time_zone}
        onChange={(time_zone) => setForm((current) => ({ ...current, time_zone }))}
        hint="Sessions without a location are at this zone's time."
        error={zoneError}
      />
    </DialogForm>
  );
}

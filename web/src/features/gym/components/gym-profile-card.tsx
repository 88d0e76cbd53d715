import { Building2, Phone } from 'lucide-react';
import * as React from 'react';
import { ProfileCard } from '@/components/cards/profile-card';
import { DialogForm, TextAreaField, TextField, useSave } from '@/components/forms/dialog-form';
import { useUser } from '@/lib/auth';
import { useGymProfile } from '../api/get-gym-profile';
import { saveGymProfile, type GymProfileInput } from '../api/save-gym-profile';
import type { GymProfile } from '../api/types';

/** "Gym Profile" on the gym dashboard: view, create (POST) or edit (PUT) the gym's profile. */
export function GymProfileCard({ className }: { className?: string }) {
  const user = useUser();
  const { data: profile, isLoading } = useGymProfile(user.user_id);

  return (
    <ProfileCard
      className={className}
      title="Gym Profile"
      description="How coaches see your gym."
      loading={isLoading}
      loadingLabel="Loading gym profile"
      exists={Boolean(profile)}
      emptyIcon={Building2}
      emptyText='No gym profile yet. Click "Create Profile" to get started.'
      form={(title, close) => (
        <GymProfileForm title={title} userId={user.user_id} profile={profile ?? null} onSaved={close} />
      )}
    >
      {profile ? (
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
      ) : null}
    </ProfileCard>
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
  const { saving, save } = useSave(onSaved);
  const set =
    (name: keyof GymProfileInput) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value }));

  return (
    <DialogForm
      title={title}
      description="Your gym's name, what it offers and how to reach it."
      submitLabel="Save Profile"
      saving={saving}
      onSubmit={() =>
        void save(
          () => saveGymProfile(userId, form, profile !== null),
          profile ? 'Profile updated successfully' : 'Profile created successfully',
          'Failed to save profile',
        )
      }
    >
      <TextField
        id="gym-name"
        label="Gym Name"
        autoComplete="organization"
        value={form.gym_name}
        onChange={set('gym_name')}
        placeholder="Downtown Athletic Club"
      />
      <TextAreaField
        id="gym-description"
        label="Description"
        value={form.description}
        onChange={set('description')}
        placeholder="Courts, hours, amenities"
      />
      <TextField id="gym-phone" label="Phone" type="tel" inputMode="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} />
    </DialogForm>
  );
}

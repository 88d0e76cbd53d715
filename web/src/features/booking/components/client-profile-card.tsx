import { ImageUp, UserRound } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { ProfileCard } from '@/components/cards/profile-card';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { SelectField } from '@/components/forms/select-field';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { initialOf } from '@/lib/names';
import { cn } from '@/lib/utils';
import {
  SKILL_LEVELS,
  useClientProfile,
  type ClientProfile,
  type SkillLevel,
} from '../api/get-client-profile';
import {
  saveClientProfile,
  toClientProfileInput,
  type ClientProfileForm,
} from '../api/save-client-profile';
import { pictureProblem, uploadProfilePicture } from '../api/upload-profile-picture';

const SKILL_LABEL: Record<SkillLevel, string> = {
  beginner: 'Beginner',
  intermediate: 'Intermediate',
  advanced: 'Advanced',
};

const skillLabel = (level: string | null) =>
  level ? (SKILL_LABEL[level as SkillLevel] ?? level) : null;

/** The client's "My Profile": picture, age, grade, sport and skill level, created or edited. */
export function ClientProfileCard({ className }: { className?: string }) {
  const user = useUser();
  const { data: profile, isLoading } = useClientProfile(user.user_id);

  return (
    <ProfileCard
      className={className}
      title="My Profile"
      description="Help coaches tailor your sessions."
      loading={isLoading}
      loadingLabel="Loading profile"
      exists={Boolean(profile)}
      emptyIcon={UserRound}
      emptyText='No profile created yet. Click "Create Profile" to get started.'
      form={(title, close) => (
        <ProfileForm title={title} userId={user.user_id} profile={profile ?? null} onSaved={close} />
      )}
    >
      {profile ? <ProfileView profile={profile} name={user.full_name} /> : null}
    </ProfileCard>
  );
}

function Avatar({ url, name, className }: { url: string | null; name: string; className?: string }) {
  return url ? (
    <img
      src={url}
      alt="Profile picture"
      className={cn('size-20 shrink-0 rounded-full border object-cover', className)}
    />
  ) : (
    <span
      aria-hidden="true"
      className={cn('flex size-20 shrink-0 items-center justify-center rounded-full bg-navy-900 text-2xl font-bold text-white', className)}
    >
      {initialOf(name)}
    </span>
  );
}

function ProfileView({ profile, name }: { profile: ClientProfile; name: string }) {
  const facts: [string, React.ReactNode][] = [
    ['Age', profile.age ?? null],
    ['Grade', profile.grade],
    ['Sport', profile.sport],
    ['Skill Level', skillLabel(profile.skill_level)],
  ];
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <Avatar url={profile.profile_picture_url} name={name} />
      <dl className="grid flex-1 grid-cols-2 gap-3">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-muted/60 p-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
            <dd className="mt-1 font-semibold text-navy-900">{value ?? 'Not set'}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ProfileForm({
  title,
  userId,
  profile,
  onSaved,
}: {
  title: string;
  userId: string;
  profile: ClientProfile | null;
  onSaved: () => void;
}) {
  const user = useUser();
  const [form, setForm] = React.useState<ClientProfileForm>(() => ({
    age: profile?.age != null ? String(profile.age) : '',
    grade: profile?.grade ?? '',
    sport: profile?.sport ?? '',
    skill_level: profile?.skill_level ?? '',
    profile_picture_url: profile?.profile_picture_url ?? '',
  }));
  const [uploading, setUploading] = React.useState(false);
  const { saving, save } = useSave(onSaved);
  const fileInput = React.useRef<HTMLInputElement>(null);
  const set = (name: 'age' | 'grade' | 'sport') => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onPicture(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after a refusal.
    event.target.value = '';
    if (!file) return;
    // SPEC §5: checked here, before anything is uploaded.
    const problem = pictureProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    setUploading(true);
    try {
      const url = await uploadProfilePicture(file);
      setForm((current) => ({ ...current, profile_picture_url: url }));
      toast.success('Profile picture uploaded successfully');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to upload image'));
    } finally {
      setUploading(false);
    }
  }

  return (
    // noValidate: SPEC §5 parses age to an integer ("15.5" → 15) instead of refusing it.
    <DialogForm
      title={title}
      description="Every field is optional; coaches see what you share."
      submitLabel="Save Profile"
      saving={saving}
      waiting={uploading}
      noValidate
      onSubmit={() =>
        void save(
          () => saveClientProfile(userId, toClientProfileInput(form), profile !== null),
          'Profile saved successfully',
          'Failed to save profile',
        )
      }
    >
      <div className="flex items-center gap-4">
        {uploading ? (
          <span className="flex size-20 items-center justify-center rounded-full border">
            <Spinner label="Uploading picture" />
          </span>
        ) : (
          <Avatar url={form.profile_picture_url || null} name={user.full_name} />
        )}
        <div className="space-y-2">
          <Label htmlFor="client-picture">Profile Picture</Label>
          <input
            ref={fileInput}
            id="client-picture"
            type="file"
            accept="image/*"
            className="sr-only"
            onChange={(event) => void onPicture(event)}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={uploading}
            onClick={() => fileInput.current?.click()}
          >
            <ImageUp aria-hidden="true" />
            {form.profile_picture_url ? 'Change Picture' : 'Upload Picture'}
          </Button>
          <p className="text-xs text-muted-foreground">An image under 5 MB.</p>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <TextField id="client-age" label="Age" type="number" inputMode="numeric" min="0" value={form.age} onChange={set('age')} />
        <TextField id="client-grade" label="Grade" value={form.grade} onChange={set('grade')} placeholder="10th" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <TextField id="client-sport" label="Sport" value={form.sport} onChange={set('sport')} placeholder="Basketball" />
        <SelectField
          id="client-skill"
          label="Skill Level"
          value={form.skill_level}
          onChange={(value) => setForm((current) => ({ ...current, skill_level: value as SkillLevel }))}
          options={SKILL_LEVELS.map((level) => ({ value: level, label: SKILL_LABEL[level] }))}
          placeholder="Select a level"
        />
      </div>
    </DialogForm>
  );
}

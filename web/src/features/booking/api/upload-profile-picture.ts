import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';

/** SPEC §9: a profile image must be under 5 MB. */
export const MAX_PICTURE_BYTES = 5242880;

/** The message SPEC §5 shows for a file that cannot be a profile picture, or null if it can. */
export function pictureProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return 'Please select an image file';
  if (file.size > MAX_PICTURE_BYTES) return 'Image size must be less than 5MB';
  return null;
}

/** POST /api/client/upload-profile-picture (multipart field `file`) → the stored picture's path. */
export async function uploadProfilePicture(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const { profile_picture_url } = await api.post<Schemas['ProfilePictureUrl']>(
    '/client/upload-profile-picture',
    form,
  );
  return profile_picture_url;
}

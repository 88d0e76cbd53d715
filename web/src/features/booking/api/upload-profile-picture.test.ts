import { describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, pictureProblem } from './upload-profile-picture';

const file = (size: number, type: string) => new File([new Uint8Array(size)], 'f', { type });

describe('a profile picture', () => {
  it('may be any image up to 5242880 bytes', () => {
    expect(MAX_PICTURE_BYTES).toBe(5242880);
    expect(pictureProblem(file(5242880, 'image/jpeg'))).toBeNull();
    expect(pictureProblem(file(10, 'image/webp'))).toBeNull();
  });

  it('must be an image', () => {
    expect(pictureProblem(file(10, 'application/pdf'))).toBe('Please select an image file');
    expect(pictureProblem(file(10, ''))).toBe('Please select an image file');
  });

  it('must not be larger than 5 MB', () => {
    expect(pictureProblem(file(5242881, 'image/png'))).toBe('Image size must be less than 5MB');
  });
});

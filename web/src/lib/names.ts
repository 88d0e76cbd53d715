/** "Maya Thompson" → "Maya". */
export function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] || fullName;
}

/** "maya thompson" → "M"; the avatar letter on coach cards. */
export function initialOf(name: string): string {
  return name.trim().charAt(0).toUpperCase() || '?';
}

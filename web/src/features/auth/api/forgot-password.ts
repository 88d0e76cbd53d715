import { api } from '@/lib/api-client';

/** POST /api/auth/forgot-password: a reset link by email, if the email has an account (202 either way). */
export const forgotPassword = (email: string) => api.post<void>('/auth/forgot-password', { email });

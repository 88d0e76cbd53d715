/**
 * The session: who is signed in. The user comes from GET /api/auth/me through SWR (the cache is
 * the single copy); the token lives in localStorage "token", as SPEC.md says.
 */
import * as React from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import useSWR, { useSWRConfig } from 'swr';
import { paths } from '@/config/paths';
import {
  ApiError,
  SESSION_EXPIRED_EVENT,
  api,
  clearToken,
  getToken,
  setToken,
} from '@/lib/api-client';
import { FullPageSpinner } from '@/components/ui/spinner';
import type { Complete, Schemas } from '@/lib/api-types';

/** The four kinds of account. */
export type Role = Schemas['Role'];

export type User = Complete<Schemas['User']>;

export type AuthResponse = Omit<Schemas['AuthResponse'], 'user'> & { user: User };

export type LoginInput = Schemas['LoginBody'];

/** Registration: any role but admin (an admin creates admins). */
export type RegisterInput = Complete<Omit<Schemas['RegisterBody'], 'role'>> & { role: Exclude<Role, 'admin'> };

export const ME_KEY = '/auth/me';

export const getMe = () => api.get<User>(ME_KEY);
export const loginWithEmailAndPassword = (input: LoginInput) =>
  api.post<AuthResponse>('/auth/login', input);
export const registerWithEmailAndPassword = (input: RegisterInput) =>
  api.post<AuthResponse>('/auth/register', input);
export const logoutOnServer = () => api.post<void>('/auth/logout');

/** Where a signed-in user belongs (the /login redirect and the post-login landing). */
export function dashboardPathFor(role: Role | string): string {
  switch (role) {
    case 'admin':
      return paths.dashboards.admin.getHref();
    case 'coach':
      return paths.dashboards.coach.getHref();
    case 'gym':
      return paths.dashboards.gym.getHref();
    default:
      return paths.dashboards.client.getHref();
  }
}

/** Where SPEC.md sends someone right after registering. */
export function postRegisterPathFor(role: Role | string): string {
  if (role === 'coach') return paths.dashboards.coach.getHref();
  if (role === 'gym') return paths.dashboards.gym.getHref();
  return paths.dashboards.client.getHref();
}

interface AuthContextValue {
  user: User | null;
  login: (input: LoginInput) => Promise<User>;
  register: (input: RegisterInput) => Promise<User>;
  /** Revokes the token on the server (ignoring failure), then forgets it and every cached read. */
  logout: (beforeForget?: () => void | Promise<void>) => Promise<void>;
}

const AuthContext = React.createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: React.ReactNode }) {
  const { mutate } = useSWRConfig();
  const [token, setTokenState] = React.useState<string | null>(() => getToken());

  const endSession = React.useCallback(() => {
    clearToken();
    setTokenState(null);
  }, []);

  const { data: user, isLoading } = useSWR<User>(token ? ME_KEY : null, getMe, {
    revalidateIfStale: false,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
    // SPEC 4: a failed current-user fetch removes the token silently. Only a refusal by the
    // server (a 4xx) counts: a request cut off by a navigation, a reload or a dropped network
    // (status 0), or a server that is down (5xx), says nothing about the token.
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) endSession();
    },
  });

  // A 401 anywhere means the stored token stopped working (logged out elsewhere, role changed).
  React.useEffect(() => {
    const onExpired = () => {
      endSession();
      void mutate(() => true, undefined, { revalidate: false });
    };
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
  }, [endSession, mutate]);

  const startSession = React.useCallback(
    async ({ token: newToken, user: newUser }: AuthResponse) => {
      setToken(newToken);
      await mutate(ME_KEY, newUser, { revalidate: false });
      setTokenState(newToken);
      return newUser;
    },
    [mutate],
  );

  const value = React.useMemo<AuthContextValue>(
    () => ({
      user: token ? (user ?? null) : null,
      login: async (input) => startSession(await loginWithEmailAndPassword(input)),
      register: async (input) => startSession(await registerWithEmailAndPassword(input)),
      logout: async (beforeForget) => {
        try {
          await logoutOnServer();
        } catch {
          // The token is dropped here either way; a failed revocation must not trap the user.
        }
        await beforeForget?.();
        endSession();
        // Clear every cached read so the next person on this browser sees nothing of this one.
        await mutate(() => true, undefined, { revalidate: false });
      },
    }),
    [token, user, startSession, endSession, mutate],
  );

  if (token && isLoading) return <FullPageSpinner />;

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = React.useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** The signed-in user, for screens behind a guard (which guarantees there is one). */
export function useUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useUser needs a signed-in user; put the screen behind a guard');
  return user;
}

/** Logout as every screen does it: revoke, leave for the landing page, forget, say so. */
export function useLogout() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  return React.useCallback(async () => {
    // Leave the guarded screen first, committed synchronously (the router otherwise renders the
    // new location in a transition, after the session has ended), so its guard does not see the
    // session end and bounce us to /login on the way out.
    await logout(async () => {
      await navigate(paths.home.getHref(), { replace: true, flushSync: true });
    });
    toast.success('Logged out successfully');
  }, [logout, navigate]);
}

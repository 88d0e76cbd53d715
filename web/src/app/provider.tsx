import * as React from 'react';
import { Toaster } from 'sonner';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { AuthProvider } from '@/lib/auth';
import { swrConfig } from '@/lib/swr';

interface AppProviderProps {
  children: React.ReactNode;
  /** Test overrides (e.g. `dedupingInterval: 0`). Keep the default cache: mutations use it. */
  swr?: SWRConfiguration;
}

/** Everything the whole app shares: the SWR cache, the session, and the toaster (SPEC 9). */
export function AppProvider({ children, swr }: AppProviderProps) {
  return (
    <SWRConfig value={{ ...swrConfig, ...swr }}>
      <Toaster position="top-right" duration={4000} visibleToasts={3} gap={14} richColors closeButton />
      <AuthProvider>{children}</AuthProvider>
    </SWRConfig>
  );
}

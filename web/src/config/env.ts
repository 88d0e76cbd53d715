/** Where the API lives: same origin, under /api (nginx or the Vite dev proxy forwards it). */
export const env = {
  apiBase: '/api',
} as const;

/** Every route of the app in one place; link with `paths.x.getHref()`, route with `paths.x.path`. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  login: { path: '/login', getHref: () => '/login' },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  expertCoaches: { path: '/expert-coaches', getHref: () => '/expert-coaches' },
  coaches: { path: '/coaches', getHref: () => '/coaches' },
  coachDetail: {
    path: '/coach/:coachId',
    getHref: (coachId: string) => `/coach/${encodeURIComponent(coachId)}`,
  },
  receipt: {
    path: '/bookings/:bookingId/receipt',
    getHref: (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/receipt`,
  },
  developers: { path: '/developers', getHref: () => '/developers' },
  /** The Messages page; `withUserId` opens (or starts) the thread with that person. */
  messages: {
    path: '/messages',
    getHref: (withUserId?: string) => (withUserId ? `/messages?with=${encodeURIComponent(withUserId)}` : '/messages'),
  },
  conversation: {
    path: '/messages/:conversationId',
    getHref: (conversationId: string) => `/messages/${encodeURIComponent(conversationId)}`,
  },
  dashboards: {
    admin: { path: '/admin/dashboard', getHref: () => '/admin/dashboard' },
    coach: { path: '/coach/dashboard', getHref: () => '/coach/dashboard' },
    client: { path: '/client/dashboard', getHref: () => '/client/dashboard' },
    gym: { path: '/gym/dashboard', getHref: () => '/gym/dashboard' },
  },
  adminReports: { path: '/admin/reports', getHref: () => '/admin/reports' },
} as const;

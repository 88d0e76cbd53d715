import { api } from '@/lib/api-client';

/** GET /api/bookings/{id}/ics: one booking as an iCalendar file, for its client or its coach. */
export const getBookingIcs = (bookingId: string) => api.file(`/bookings/${encodeURIComponent(bookingId)}/ics`);

/** The name the downloaded file is saved under. */
export const bookingIcsName = (bookingDate: string) => `courtside-session-${bookingDate}.ics`;

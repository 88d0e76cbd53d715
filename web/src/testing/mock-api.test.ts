import { describe, expect, it } from 'vitest';
import { api } from '@/lib/api-client';
import { mockApi, takeUnexpectedCalls } from './mock-api';

describe('the test fetch mock', () => {
  it('holds a call no route declares against the test, by method and path', async () => {
    mockApi({ 'GET /coaches': [] });
    await api.get('/coaches');
    await expect(api.patch('/bookings/b-1/cancel')).rejects.toMatchObject({ status: 404 });
    // setup-tests fails the test on these after it; taking them here keeps this test green.
    expect(takeUnexpectedCalls()).toEqual(['PATCH /bookings/b-1/cancel']);
  });

  it("answers a body that has its own status field as that body, not as a response's status", async () => {
    mockApi({ 'PATCH /coach/bookings/b-1/cancel': { booking_id: 'b-1', status: 'cancelled' } });
    await expect(api.patch('/coach/bookings/b-1/cancel')).resolves.toEqual({ booking_id: 'b-1', status: 'cancelled' });
  });
});

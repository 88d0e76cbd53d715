import { Info } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useCoachPolicy } from '../api/get-coach-policy';
import { policyLines } from '../utils/booking-policy';

/**
 * A coach's booking policy as a client reads it on the coach's page, before choosing a slot:
 * "Book at least 2 hours ahead", "Free cancellation until 24 hours before" (GET
 * /api/coach/policy/{coach_id}; the defaults when the coach set none). Unreadable, it says so
 * and the booking dialog still shows the lines it can.
 */
export function CoachPolicyCard({ coachId, className }: { coachId: string; className?: string }) {
  const { data: policy, error, isLoading } = useCoachPolicy(coachId);

  return (
    <Card className={className} role="region" aria-labelledby="coach-policy-title">
      <CardHeader>
        <CardTitle id="coach-policy-title">Booking policy</CardTitle>
        <CardDescription>When you can book this coach and cancel for free.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-2">
            <Spinner label="Loading the booking policy" />
          </div>
        ) : error || !policy ? (
          <p className="text-sm text-muted-foreground">The booking policy could not be loaded.</p>
        ) : (
          <ul aria-label="Booking policy" data-testid="coach-policy" className="grid gap-1 text-sm text-navy-700">
            {policyLines(policy).map((line) => (
              <li key={line} className="flex items-start gap-2">
                <Info className="mt-0.5 size-4 shrink-0 text-court-700" aria-hidden="true" />
                {line}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

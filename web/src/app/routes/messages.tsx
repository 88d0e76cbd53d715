import { LayoutDashboard } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { MessagesPage } from '@/features/messages/components/messages-page';
import { dashboardPathFor, useUser } from '@/lib/auth';

/** "/messages" and "/messages/{conversationId}": every role's conversations (issue 36). */
export default function MessagesRoute() {
  const user = useUser();
  const { conversationId } = useParams<{ conversationId?: string }>();
  return (
    <DashboardLayout
      title="Messages"
      navActions={
        <Button asChild variant="ghost" size="sm">
          <Link to={dashboardPathFor(user.role)}>
            <LayoutDashboard aria-hidden="true" />
            Dashboard
          </Link>
        </Button>
      }
    >
      <MessagesPage conversationId={conversationId} />
    </DashboardLayout>
  );
}

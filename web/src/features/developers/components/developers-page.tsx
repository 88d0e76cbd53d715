import { ApiTokensCard } from './api-tokens-card';
import { WebhooksCard } from './webhooks-card';

/** The Developers page's body (issue 37): API tokens for scripts, webhooks for systems that want to
 * hear about events as they happen. */
export function DevelopersPage() {
  return (
    <div className="grid gap-6">
      <ApiTokensCard />
      <WebhooksCard />
    </div>
  );
}

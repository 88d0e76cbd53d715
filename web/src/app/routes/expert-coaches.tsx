import { FullPageSpinner } from '@/components/ui/spinner';

// Placeholder until the coaching screens land (next commit).
export default function Route() {
  return <FullPageSpinner />;
}

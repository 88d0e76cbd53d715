import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** The Courtside mark; always a link home. `tone` picks colours for light or dark backgrounds. */
export function Logo({ tone = 'dark', className }: { tone?: 'dark' | 'light'; className?: string }) {
  return (
    <Link
      to={paths.home.getHref()}
      aria-label="Courtside home"
      className={cn(
        'inline-flex items-center gap-2 rounded-md font-extrabold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        tone === 'light' ? 'text-white' : 'text-navy-900',
        className,
      )}
    >
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#0b1f3a" />
        <circle cx="16" cy="16" r="9" fill="none" stroke="#f97316" strokeWidth="2.5" />
        <path d="M7 16h18M16 7v18" stroke="#f97316" strokeWidth="2" />
      </svg>
      <span className="text-xl">
        Court<span className={tone === 'light' ? 'text-court-400' : 'text-court-700'}>side</span>
      </span>
    </Link>
  );
}

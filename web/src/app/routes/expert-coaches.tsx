import { ArrowLeft, Award, Search, SearchX, Sparkles, Users } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router-dom';
import { HeaderNav } from '@/components/layouts/header-nav';
import { Logo } from '@/components/layouts/logo';
import { PageMeta } from '@/components/layouts/page-meta';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { useCoaches } from '@/features/coaching/api/get-coaches';
import { CoachCardSkeletons } from '@/features/coaching/components/coach-card-skeletons';
import { PublicCoachCard } from '@/features/coaching/components/public-coach-card';
import { directoryStats, filterCoaches } from '@/features/coaching/utils/filter-coaches';
import { useProgressive } from '@/lib/use-progressive';

/** Cards rendered at first, and added each time the reader nears the end of the list. */
const CARDS_AT_A_TIME = 24;

/** "/expert-coaches" (SPEC §2 Public coaches page): browse without signing in. */
export default function ExpertCoachesRoute() {
  // SPEC §8: a failed load is logged, loading ends and the empty state shows.
  const { data, isLoading } = useCoaches({
    onError: (error) => console.error('Failed to load coaches', error),
  });
  const [search, setSearch] = React.useState('');
  const coaches = data ?? [];
  const shown = filterCoaches(coaches, search);
  const stats = directoryStats(coaches);
  const searching = search.trim() !== '';
  // A city's directory is thousands of coaches: a screenful of cards at a time, never all at once.
  const progressive = useProgressive(shown, CARDS_AT_A_TIME, search.trim().toLowerCase());

  return (
    <div className="min-h-screen bg-background">
      <PageMeta
        title="Expert Coaches | Courtside"
        description="Browse Courtside's basketball and volleyball coaches: their experience, specialties, cities and hourly rates. Sign up to book a session."
      />
      <header className="border-b bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
          <Logo />
          <HeaderNav label="Main">
            <Button asChild variant="ghost" size="sm">
              <Link to={paths.home.getHref()}>
                <ArrowLeft aria-hidden="true" />
                Back to Home
              </Link>
            </Button>
            <Button asChild variant="accent" size="sm">
              <Link to={paths.login.getHref()}>Login / Sign Up</Link>
            </Button>
          </HeaderNav>
        </div>
      </header>

      <section className="bg-navy-900 text-white">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Expert Coaches</h1>
          <p className="mt-2 max-w-2xl text-navy-100">
            Basketball and volleyball coaches ready to work with you one-on-one.
          </p>
          <dl aria-label="Coach summary" className="mt-8 grid grid-cols-3 gap-3 sm:max-w-2xl">
            <Stat icon={<Users />} label="Coaches" value={isLoading ? '–' : stats.coaches} />
            <Stat icon={<Award />} label="Years of Experience" value={isLoading ? '–' : stats.years} />
            <Stat icon={<Sparkles />} label="Specialties" value={isLoading ? '–' : stats.specialties} />
          </dl>
        </div>
      </section>

      <main className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <h2 className="text-2xl font-bold tracking-tight">
            {searching ? `${shown.length} coaches found` : 'All Coaches'}
          </h2>
          <div className="relative w-full sm:max-w-sm">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              type="search"
              aria-label="Search coaches"
              placeholder="Search by name or specialty..."
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="pl-9"
            />
          </div>
        </div>

        <div className="mt-6">
          {isLoading ? (
            <CoachCardSkeletons label="Loading coaches" />
          ) : shown.length === 0 ? (
            <EmptyState
              icon={<SearchX />}
              title="No coaches found"
              description="Try adjusting your search criteria"
            />
          ) : (
            <>
              <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {progressive.shown.map((coach) => (
                  <li key={coach.coach_id}>
                    <PublicCoachCard coach={coach} />
                  </li>
                ))}
              </ul>
              {progressive.hasMore ? (
                <div ref={progressive.sentinel} className="mt-8 flex justify-center">
                  <Button variant="outline" onClick={progressive.showMore}>
                    Show more coaches
                    <span className="sr-only">
                      {' '}
                      ({progressive.shown.length} of {shown.length} shown)
                    </span>
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </div>

        <section
          aria-labelledby="join-heading"
          className="mt-16 rounded-2xl bg-gradient-to-br from-navy-900 to-navy-700 px-6 py-12 text-center text-white"
        >
          <h2 id="join-heading" className="text-2xl font-extrabold tracking-tight sm:text-3xl">
            Ready to train with a pro?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-navy-100">
            Create a free account to see each coach's schedule and book your first session.
          </p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild variant="accent" size="lg">
              <Link to={paths.login.getHref()}>Sign Up Now</Link>
            </Button>
            <Button asChild variant="inverse" size="lg">
              {/* SPEC's visible words, then, for readers and search engines, where the link goes. */}
              <Link to={paths.home.getHref()}>
                Learn More <span className="sr-only">about Courtside on the home page</span>
              </Link>
            </Button>
          </div>
        </section>
      </main>
    </div>
  );
}

function Stat({ icon, label, value }: { icon: React.ReactNode; label: string; value: number | string }) {
  return (
    <div className="flex flex-col rounded-xl border border-white/10 bg-white/5 p-4">
      <div className="text-court-400 [&_svg]:size-5" aria-hidden="true">
        {icon}
      </div>
      <dt className="order-last text-xs text-navy-200 sm:text-sm">{label}</dt>
      <dd className="mt-2 text-2xl font-extrabold sm:text-3xl">{value}</dd>
    </div>
  );
}

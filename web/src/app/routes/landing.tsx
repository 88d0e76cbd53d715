import {
  ArrowRight,
  Award,
  Building2,
  CalendarClock,
  CheckCircle2,
  CreditCard,
  LayoutDashboard,
  MapPin,
  Settings2,
  TrendingUp,
} from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router-dom';
import { HeaderNav } from '@/components/layouts/header-nav';
import { Logo } from '@/components/layouts/logo';
import { PageMeta } from '@/components/layouts/page-meta';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { dashboardPathFor, useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';

/** "/" (SPEC §2 Landing page): the pitch to athletes, coaches and gyms. */
export function LandingRoute() {
  return (
    <div className="min-h-screen bg-white text-navy-900">
      <PageMeta
        title="Courtside: Basketball & Volleyball Coaching"
        description="Courtside: book one-on-one basketball and volleyball coaching, and rent gym courts."
      />
      <TopBar />
      <main>
        <Hero />
        <Features />
        <GymPitch />
        <ReadyToStart />
      </main>
      <Footer />
    </div>
  );
}

function ToLogin({
  children,
  variant = 'accent',
  size = 'lg',
  className,
}: {
  children: React.ReactNode;
  variant?: 'accent' | 'default' | 'outline' | 'inverse' | 'ghost';
  size?: 'lg' | 'default' | 'sm';
  className?: string;
}) {
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link to={paths.login.getHref()}>{children}</Link>
    </Button>
  );
}

function TopBar() {
  const { user } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-navy-900/95 backdrop-blur supports-[backdrop-filter]:bg-navy-900/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
        <Logo tone="light" />
        <HeaderNav label="Main" tone="light">
          {user ? (
            <Button asChild variant="accent">
              <Link to={dashboardPathFor(user.role)}>
                <LayoutDashboard aria-hidden="true" />
                Dashboard
              </Link>
            </Button>
          ) : (
            <>
              <ToLogin variant="ghost" size="default" className="sm:text-white sm:hover:bg-white/10">
                Login
              </ToLogin>
              <ToLogin size="default">Get Started</ToLogin>
            </>
          )}
        </HeaderNav>
      </div>
    </header>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden bg-navy-900 text-white">
      <CourtLines />
      <div className="relative mx-auto grid max-w-7xl gap-12 px-4 py-20 sm:px-6 sm:py-28 lg:grid-cols-[1.15fr_0.85fr] lg:items-center lg:px-8">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm font-medium text-court-200">
            <span className="size-2 rounded-full bg-court-500" aria-hidden="true" />
            Basketball &amp; volleyball coaching
          </p>
          <h1 className="mt-6 text-4xl font-extrabold leading-[1.05] tracking-tight sm:text-5xl lg:text-6xl">
            Train one-on-one with coaches who <span className="text-court-400">elevate your game</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-navy-100">
            Find an expert coach, pick a time that fits your week, and meet on a reserved court near
            you. Coaches fill their schedules, and gyms put empty courts to work.
          </p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <ToLogin>
              Book a Session
              <ArrowRight aria-hidden="true" />
            </ToLogin>
            <ToLogin variant="inverse">Become a Coach</ToLogin>
            <ToLogin variant="inverse">Host Your Courts</ToLogin>
          </div>
          <p className="mt-8 flex items-center gap-2 text-sm text-navy-200">
            <TrendingUp className="size-4 text-court-400" aria-hidden="true" />
            Hundreds of athletes are already improving their game with Courtside.
          </p>
        </div>
        <HeroCard />
      </div>
    </section>
  );
}

/** A still life of the product: one coach, one open slot. Decorative, so hidden from readers. */
function HeroCard() {
  return (
    <div aria-hidden="true" className="hidden lg:block">
      <div className="rotate-1 rounded-2xl border border-white/10 bg-white p-6 text-navy-900 shadow-2xl">
        <div className="flex items-center gap-4">
          <div className="flex size-14 items-center justify-center rounded-full bg-court-700 text-2xl font-extrabold text-white">
            M
          </div>
          <div>
            <p className="text-lg font-bold">Maya Thompson</p>
            <p className="text-sm text-muted-foreground">8 years experience</p>
          </div>
          <p className="ml-auto text-xl font-extrabold">
            $65<span className="text-sm font-medium text-muted-foreground">/hr</span>
          </p>
        </div>
        <div className="mt-4 flex flex-wrap gap-2">
          {['Shooting', 'Ball Handling', 'Volleyball Serve'].map((s) => (
            <span key={s} className="rounded-full bg-navy-50 px-2.5 py-0.5 text-xs font-semibold text-navy-700">
              {s}
            </span>
          ))}
        </div>
        <div className="mt-6 space-y-2">
          {[
            ['Every Tuesday', '17:00 - 18:00'],
            ['Every Saturday', '09:00 - 10:30'],
          ].map(([day, time]) => (
            <div key={day} className="flex items-center justify-between rounded-lg border bg-muted/60 px-4 py-3">
              <div>
                <p className="text-sm font-semibold">{day}</p>
                <p className="text-xs text-muted-foreground">{time} · Eastside Rec - Court 2</p>
              </div>
              <span className="rounded-md bg-navy-900 px-3 py-1.5 text-xs font-semibold text-white">Book</span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function CourtLines() {
  return (
    <svg
      aria-hidden="true"
      className="pointer-events-none absolute -right-40 top-1/2 h-[140%] -translate-y-1/2 opacity-[0.07]"
      viewBox="0 0 400 400"
      fill="none"
      stroke="white"
      strokeWidth="3"
    >
      <circle cx="200" cy="200" r="190" />
      <circle cx="200" cy="200" r="60" />
      <path d="M10 200h380M200 10v380" />
      <path d="M60 65c80 70 80 200 0 270M340 65c-80 70-80 200 0 270" />
    </svg>
  );
}

const FEATURES = [
  {
    title: 'Expert Coaches',
    text: 'Browse experienced basketball and volleyball coaches, their specialties and their rates.',
    icon: Award,
    href: paths.expertCoaches.getHref(),
  },
  {
    title: 'Flexible Scheduling',
    text: 'Book recurring weekly sessions or one-time slots that fit around school, work and games.',
    icon: CalendarClock,
  },
  {
    title: 'Multiple Locations',
    text: 'Train at gyms across town, with court space reserved for your session.',
    icon: MapPin,
  },
  {
    title: 'Easy Payments',
    text: 'Secure payments, with every session and its payment status in one place.',
    icon: CreditCard,
  },
] as const;

function Features() {
  return (
    <section aria-labelledby="features-heading" className="bg-background py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-bold uppercase tracking-widest text-court-700">Why Courtside</p>
          <h2 id="features-heading" className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
            Everything you need to get better, in one place
          </h2>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => {
            const Icon = feature.icon;
            const body = (
              <>
                <span className="flex size-12 items-center justify-center rounded-xl bg-court-100 text-court-700">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="mt-5 text-lg font-bold">{feature.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{feature.text}</p>
              </>
            );
            const base = 'block h-full rounded-xl border bg-white p-6 shadow-sm';
            return (
              <li key={feature.title}>
                {'href' in feature ? (
                  <Link
                    to={feature.href}
                    className={cn(
                      base,
                      'group transition hover:-translate-y-0.5 hover:border-court-300 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    )}
                  >
                    {body}
                    <span className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-court-700">
                      Meet the coaches
                      <ArrowRight className="size-4 transition group-hover:translate-x-0.5" aria-hidden="true" />
                    </span>
                  </Link>
                ) : (
                  <div className={base}>{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

const GYM_POINTS = [
  {
    title: 'Maximize Court Utilization',
    text: 'Turn quiet hours into income by listing open court time for coaches to reserve.',
    icon: TrendingUp,
  },
  {
    title: 'Approve Every Reservation',
    text: 'Every request waits for your yes or no, so you always decide who uses your courts.',
    icon: CheckCircle2,
  },
  {
    title: 'Simple Management',
    text: 'Locations, courts and availability managed from one straightforward dashboard.',
    icon: Settings2,
  },
] as const;

function GymPitch() {
  return (
    <section aria-labelledby="gym-heading" className="bg-white py-20 sm:py-24">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <p className="inline-flex items-center gap-2 text-sm font-bold uppercase tracking-widest text-court-700">
            <Building2 className="size-4" aria-hidden="true" />
            For gyms
          </p>
          <h2 id="gym-heading" className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
            Own a gym? Fill your courts.
          </h2>
          <p className="mt-4 max-w-xl text-lg leading-relaxed text-muted-foreground">
            Coaches on Courtside need court space for their sessions. List your facility and rent
            your courts to them on your terms.
          </p>
          <div className="mt-8">
            <ToLogin variant="default">
              List Your Facility
              <ArrowRight aria-hidden="true" />
            </ToLogin>
          </div>
        </div>
        <ul className="grid gap-4">
          {GYM_POINTS.map((point) => {
            const Icon = point.icon;
            return (
              <li key={point.title} className="flex gap-4 rounded-xl border bg-background p-5">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-navy-900 text-court-400">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-bold">{point.title}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{point.text}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

function ReadyToStart() {
  return (
    <section aria-labelledby="cta-heading" className="bg-background px-4 py-20 sm:px-6 lg:px-8">
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-navy-900 to-navy-700 px-6 py-14 text-center text-white shadow-xl sm:px-12">
        <CourtLines />
        <h2 id="cta-heading" className="relative text-3xl font-extrabold tracking-tight sm:text-4xl">
          Ready to start?
        </h2>
        <p className="relative mx-auto mt-4 max-w-2xl text-lg text-navy-100">
          Join the athletes, coaches and gyms already playing on Courtside.
        </p>
        <div className="relative mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ToLogin>Start Your Journey</ToLogin>
          <ToLogin variant="inverse">List Your Gym</ToLogin>
        </div>
      </div>
    </section>
  );
}

function Footer() {
  return (
    <footer className="border-t bg-navy-950 text-navy-200">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-8 sm:flex-row sm:px-6 lg:px-8">
        <Logo tone="light" />
        <p className="text-sm">© 2025 Courtside. All rights reserved.</p>
      </div>
    </footer>
  );
}

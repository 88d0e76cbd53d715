import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

export default function NotFoundRoute() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-4 bg-background px-4 text-center">
      <p className="text-sm font-bold uppercase tracking-widest text-court-700">404</p>
      <h1 className="text-2xl font-extrabold text-navy-900">Page not found</h1>
      <p className="max-w-md text-muted-foreground">The page you are looking for does not exist.</p>
      <Link to={paths.home.getHref()} className={buttonVariants({ variant: 'accent' })}>
        Back to Home
      </Link>
    </div>
  );
}

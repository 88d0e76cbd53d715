import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Shown when a route throws while rendering or its chunk fails to load. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-4 bg-background px-4 text-center">
      <h1 className="text-2xl font-extrabold text-navy-900">
        {notFound ? 'Page not found' : 'Something went wrong'}
      </h1>
      <p className="max-w-md text-muted-foreground">
        {notFound
          ? 'The page you are looking for does not exist.'
          : 'Please reload the page. If it keeps happening, try again in a few minutes.'}
      </p>
      <Link to={paths.home.getHref()} className={buttonVariants({ variant: 'accent' })}>
        Back to Home
      </Link>
    </div>
  );
}

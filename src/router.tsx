/**
 * The routes of SPEC.md §2. Every screen is loaded on demand: the login route pulls neither the
 * shell nor any business page. Pages under /layout come from the registry in ./routes.
 *
 * - `/` → /layout/welcome; any unknown path → /Layout/errors/404 (matching is case-insensitive,
 *   so the 404 page renders at that exact casing).
 * - Without a token every route but /login sends the user to /login?redirect=<the full path>.
 *
 * The shell and its pages are React.lazy components rather than route.lazy: the router starts a
 * route's `lazy()` alongside its loaders, so a visitor without a token would download the shell
 * before the guard sends them to login. A lazy component loads only once it renders, i.e. after the
 * guard has let the navigation through (the router's transition keeps the previous screen meanwhile).
 */
import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import type { AppStore } from './store';
import { pageRoutes, type PageRoute } from './routes';
import RouteError from './RouteError';
import { onDemand } from './components/onDemand';

export const HOME_PATH = '/layout/welcome';
export const NOT_FOUND_PATH = '/Layout/errors/404';
export const LOGIN_ROUTE = '/login';

export function loginRedirect(fullPath: string) {
  return `${LOGIN_ROUTE}?redirect=${encodeURIComponent(fullPath)}`;
}

/** A route's component: `load()` the first time it renders (onDemand), with the route's fixed props. */
function lazyComponent(load: PageRoute['load'], props?: Record<string, unknown>): ComponentType {
  const Page = onDemand(load);
  return function LazyRoute() {
    return <Page {...props} />;
  };
}

/**
 * A page's component: `load()` the first time it renders, suspending up to the shell's boundary, which
 * shows a skeleton of a page meanwhile (src/layout/Layout) rather than an empty main area.
 */
function lazyPage(load: PageRoute['load'], props?: Record<string, unknown>): ComponentType {
  const Page = lazy(load);
  return function LazyPage() {
    return <Page {...props} />;
  };
}

export function createRoutes(store: Pick<AppStore, 'getState'>): RouteObject[] {
  const requireToken = ({ request }: LoaderFunctionArgs) => {
    if (store.getState().auth.token) return null;
    const url = new URL(request.url);
    throw redirect(loginRedirect(`${url.pathname}${url.search}`));
  };
  const toNotFound = () => redirect(NOT_FOUND_PATH);

  return [
    {
      id: 'root',
      ErrorBoundary: RouteError,
      HydrateFallback: () => null,
      children: [
        { index: true, loader: () => redirect(HOME_PATH) },
        {
          path: 'login',
          lazy: async () => ({
            Component: (await import(/* webpackChunkName: "login" */ './pages/login/LoginPage')).default,
          }),
        },
        {
          path: 'layout',
          loader: requireToken,
          // The guard runs on every navigation, not only when /layout is first entered.
          shouldRevalidate: () => true,
          // webpack.config.js finds the shell's modules by this chunk name.
          Component: lazyComponent(() => import(/* webpackChunkName: "layout" */ './layout/Layout')),
          children: [
            { index: true, loader: () => redirect(HOME_PATH) },
            ...pageRoutes.map((page): RouteObject => ({
              path: page.path,
              Component: lazyPage(page.load, page.props),
            })),
            { path: '*', loader: toNotFound },
          ],
        },
        { path: '*', loader: toNotFound },
      ],
    },
  ];
}

export function createAppRouter(store: Pick<AppStore, 'getState'>) {
  return createBrowserRouter(createRoutes(store));
}

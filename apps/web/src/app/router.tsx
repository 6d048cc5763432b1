import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, replace, type RouteObject } from 'react-router';
import type { StepName } from '@funnel/contracts/steps';
import type { FunnelRouteHandle } from '@/features/funnel/utils/funnel-route-handle';
import { PageLoader } from '@/components/ui/page-loader';
import { nextTask } from '@/lib/next-task';
import { applyAliasLoader } from './apply-aliases';
import { NotFoundScreen } from './not-found-screen';
import { RootFallback, RootLayout } from './root-layout';
import { RouteErrorScreen } from './route-error-screen';

type ScreenModule = { default: ComponentType };
type LazyRoute = () => Promise<{ Component: ComponentType }>;

/** Each lazy route's source module, as the Vite manifest names it: the prerender preloads the route's chunk. */
const lazySources = new Map<LazyRoute, string>();

/**
 * A route's `lazy`: the screen's code is downloaded the first time the route is visited. `source` is the module
 * `load` imports, as the Vite manifest names it (scripts/prerender.mjs fails the build on a name the manifest
 * lacks).
 */
function screen(source: string, load: () => Promise<ScreenModule>): LazyRoute {
  const lazy: LazyRoute = async () => ({ Component: (await load()).default });
  lazySources.set(lazy, source);
  return lazy;
}

/**
 * One lazy chunk per wizard step. The record is typed by the contracts' step names, so a step added to the
 * registry fails the type check until it has a screen here.
 */
const STEP_SCREENS: Record<StepName, () => Promise<ScreenModule>> = {
  lgname: () => import('@/features/funnel/steps/lgname-step'),
  email: () => import('@/features/funnel/steps/email-step'),
  cellphone: () => import('@/features/funnel/steps/cellphone-step'),
  besttimecontact: () => import('@/features/funnel/steps/besttimecontact-step'),
  dob: () => import('@/features/funnel/steps/dob-step'),
  address: () => import('@/features/funnel/steps/address-step'),
  hometime: () => import('@/features/funnel/steps/hometime-step'),
  ownhome: () => import('@/features/funnel/steps/ownhome-step'),
  incomesource: () => import('@/features/funnel/steps/incomesource-step'),
  emptime: () => import('@/features/funnel/steps/emptime-step'),
  unsecureddebtamount: () => import('@/features/funnel/steps/unsecureddebtamount-step'),
  payfreequency: () => import('@/features/funnel/steps/payfreequency-step'),
  grossincome: () => import('@/features/funnel/steps/grossincome-step'),
  nextpaydate: () => import('@/features/funnel/steps/nextpaydate-step'),
  empinfor: () => import('@/features/funnel/steps/empinfor-step'),
  workphone: () => import('@/features/funnel/steps/workphone-step'),
  deposit: () => import('@/features/funnel/steps/deposit-step'),
  aba: () => import('@/features/funnel/steps/aba-step'),
  banktype: () => import('@/features/funnel/steps/banktype-step'),
  banktime: () => import('@/features/funnel/steps/banktime-step'),
  bankaccount: () => import('@/features/funnel/steps/bankaccount-step'),
  driverid: () => import('@/features/funnel/steps/driverid-step'),
  owncar: () => import('@/features/funnel/steps/owncar-step'),
  creditscore: () => import('@/features/funnel/steps/creditscore-step'),
  ssn: () => import('@/features/funnel/steps/ssn-step'),
};

/**
 * The contracts' step registry, which every funnel screen imports, is evaluated in tasks of its own before the
 * screen's code: zod with the answer options' schemas (`options`), then the landing form's schemas the steps
 * reuse (`landing`), then every step's schema and the phone number metadata (`steps`). Together they were one
 * long task while a step's page hydrated (docs/adr/0019-html-first-borrower-screens.md).
 */
const stepRegistryFirst =
  (load: () => Promise<ScreenModule>): (() => Promise<ScreenModule>) =>
  () =>
    import('@funnel/contracts/options')
      .then(nextTask)
      .then(() => import('@funnel/contracts/landing'))
      .then(nextTask)
      .then(() => import('@funnel/contracts/steps'))
      .then(nextTask)
      .then(load);

const stepRoutes: RouteObject[] = (Object.keys(STEP_SCREENS) as StepName[]).map((step) => ({
  path: step,
  handle: { step } satisfies FunnelRouteHandle,
  lazy: screen(`src/features/funnel/steps/${step}-step.tsx`, stepRegistryFirst(STEP_SCREENS[step])),
}));

const FUNNEL_ROUTE_ID = 'funnel';

const matchingScreen = screen(
  'src/features/matching/components/matching-screen.tsx',
  () => import('@/features/matching/components/matching-screen'),
);

const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: RootFallback,
    ErrorBoundary: RouteErrorScreen,
    children: [
      // The query goes along (a deep link may arrive as /?email=&loan_reason=), and the address it came with is
      // replaced, not kept in history, so Back cannot return to an email in the URL.
      {
        index: true,
        loader: ({ request }) => replace(`/start${new URL(request.url).search}`),
        // The loader always redirects; an explicit empty element keeps the router from warning that the leaf
        // route at '/' renders nothing (issue 25).
        element: null,
      },
      {
        path: 'start',
        lazy: screen(
          'src/features/landing/components/landing-screen.tsx',
          () => import('@/features/landing/components/landing-screen'),
        ),
      },
      {
        // The funnel's frame (progress, the lead's answers) around every step screen: it reads the lead first.
        id: FUNNEL_ROUTE_ID,
        lazy: screen(
          'src/features/funnel/components/funnel-layout.tsx',
          stepRegistryFirst(() => import('@/features/funnel/components/funnel-layout')),
        ),
        children: [
          ...stepRoutes,
          {
            path: 'nextpaydatesort',
            handle: { step: 'nextpaydate' } satisfies FunnelRouteHandle,
            lazy: screen(
              'src/features/funnel/steps/nextpaydatesort-step.tsx',
              () => import('@/features/funnel/steps/nextpaydatesort-step'),
            ),
          },
          {
            path: 'requestcash',
            handle: { finished: true } satisfies FunnelRouteHandle,
            lazy: screen(
              'src/features/funnel/screens/request-cash-screen.tsx',
              () => import('@/features/funnel/screens/request-cash-screen'),
            ),
          },
        ],
      },
      { path: 'apply/:alias?', loader: applyAliasLoader },
      { path: 'mapping-lender', lazy: matchingScreen },
      { path: 'configuration', lazy: matchingScreen },
      // The outcome screens (docs/product-rules.md §outcome-screens); `outcomeRoute` in contracts picks one.
      {
        path: 'redirect',
        lazy: screen(
          'src/features/outcome/screens/redirect-screen.tsx',
          () => import('@/features/outcome/screens/redirect-screen'),
        ),
      },
      {
        path: 'redirect-upstart',
        lazy: screen(
          'src/features/outcome/screens/redirect-upstart-screen.tsx',
          () => import('@/features/outcome/screens/redirect-upstart-screen'),
        ),
      },
      {
        path: 'redirect-upgrade',
        lazy: screen(
          'src/features/outcome/screens/redirect-upgrade-screen.tsx',
          () => import('@/features/outcome/screens/redirect-upgrade-screen'),
        ),
      },
      {
        path: 'reject-page',
        lazy: screen(
          'src/features/outcome/screens/reject-screen.tsx',
          () => import('@/features/outcome/screens/reject-screen'),
        ),
      },
      // The site's reading pages and privacy forms (spec §2 "Other routes"), each its own chunk.
      {
        path: 'frequently-asked-questions',
        lazy: screen('src/features/content/faq-page.tsx', () => import('@/features/content/faq-page')),
      },
      {
        path: 'credit-authorization-agreement',
        lazy: screen(
          'src/features/content/credit-authorization-page.tsx',
          () => import('@/features/content/credit-authorization-page'),
        ),
      },
      {
        path: 'terms-of-use',
        lazy: screen(
          'src/features/content/terms-of-use-page.tsx',
          () => import('@/features/content/terms-of-use-page'),
        ),
      },
      {
        path: 'privacy',
        lazy: screen(
          'src/features/content/privacy-policy-page.tsx',
          () => import('@/features/content/privacy-policy-page'),
        ),
      },
      {
        path: 'contact-us',
        lazy: screen(
          'src/features/content/contact-us-page.tsx',
          () => import('@/features/content/contact-us-page'),
        ),
      },
      {
        path: 'disclaimer',
        lazy: screen(
          'src/features/content/disclaimer-page.tsx',
          () => import('@/features/content/disclaimer-page'),
        ),
      },
      {
        path: 'congratulations',
        lazy: screen(
          'src/features/content/congratulations-page.tsx',
          () => import('@/features/content/congratulations-page'),
        ),
      },
      {
        path: 'partners',
        lazy: screen(
          'src/features/partners/components/partners-page.tsx',
          () => import('@/features/partners/components/partners-page'),
        ),
      },
      {
        path: 'unsubscribe',
        lazy: screen(
          'src/features/privacy-requests/components/unsubscribe-page.tsx',
          () => import('@/features/privacy-requests/components/unsubscribe-page'),
        ),
      },
      {
        path: 'do-not-sell-information',
        lazy: screen(
          'src/features/privacy-requests/components/do-not-sell-page.tsx',
          () => import('@/features/privacy-requests/components/do-not-sell-page'),
        ),
      },
      { path: '*', Component: NotFoundScreen },
    ],
  },
  // The operators' console (its own pages under it): outside the borrower's site frame, and a lazy chunk no
  // borrower route imports.
  {
    path: '/operator/*',
    ErrorBoundary: RouteErrorScreen,
    HydrateFallback: PageLoader,
    lazy: screen(
      'src/features/operator/components/operator-page.tsx',
      () => import('@/features/operator/components/operator-page'),
    ),
  },
];

/**
 * Resolves the lazy routes `pathname` matches, in place, so the router starts on a screen that is already loaded:
 * the first render then hydrates the prerendered HTML instead of showing the fallback. The chunks are
 * `modulepreload`ed by the page, so this waits for no extra request.
 */
export async function loadRoutesFor(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      const lazy = route.lazy as LazyRoute | undefined;
      if (!lazy) return;
      Object.assign(route, await lazy(), { lazy: undefined });
    }),
  );
}

/** Whether `pathname` is one of the funnel's screens, whose first render reads the visitor's lead. */
export function readsLeadFirst(pathname: string): boolean {
  return (matchRoutes(routes, pathname) ?? []).some(({ route }) => route.id === FUNNEL_ROUTE_ID);
}

/** The source modules of the lazy routes `pathname` matches (Vite manifest keys), outermost first. */
export function routeSources(pathname: string): string[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const source = lazySources.get(route.lazy as LazyRoute);
    return source ? [source] : [];
  });
}

/**
 * The addresses prerendered to HTML at build time: every route with a fixed path and no loader (a loader
 * redirects, so there is no page to paint), under the site frame. Not the operator page, nor the catch-all.
 */
export function prerenderedPaths(): string[] {
  const root = routes[0];
  const paths: string[] = [];
  const visit = (list: RouteObject[] | undefined) => {
    for (const route of list ?? []) {
      if (route.path && !/[:*?]/.test(route.path) && !route.loader) paths.push(`/${route.path}`);
      visit(route.children);
    }
  };
  visit(root?.children);
  return paths;
}

export { routes };

export function createRouter() {
  return createBrowserRouter(routes);
}

import type { ComponentType } from 'react';
import { createBrowserRouter, replace, type RouteObject } from 'react-router';
import type { StepName } from '@funnel/contracts/steps';
import type { FunnelRouteHandle } from '@/features/funnel/utils/funnel-route-handle';
import { PageLoader } from '@/components/ui/page-loader';
import { applyAliasLoader } from './apply-aliases';
import { NotFoundScreen } from './not-found-screen';
import { RootFallback, RootLayout } from './root-layout';
import { RouteErrorScreen } from './route-error-screen';

type ScreenModule = { default: ComponentType };

/** A route's `lazy`: the screen's code is downloaded the first time the route is visited. */
function screen(load: () => Promise<ScreenModule>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
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

const stepRoutes: RouteObject[] = (Object.keys(STEP_SCREENS) as StepName[]).map((step) => ({
  path: step,
  handle: { step } satisfies FunnelRouteHandle,
  lazy: screen(STEP_SCREENS[step]),
}));

const matchingScreen = screen(() => import('@/features/matching/components/matching-screen'));

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
      { path: 'start', lazy: screen(() => import('@/features/landing/components/landing-screen')) },
      {
        lazy: screen(() => import('@/features/funnel/components/funnel-layout')),
        children: [
          ...stepRoutes,
          {
            path: 'nextpaydatesort',
            handle: { step: 'nextpaydate' } satisfies FunnelRouteHandle,
            lazy: screen(() => import('@/features/funnel/steps/nextpaydatesort-step')),
          },
          {
            path: 'requestcash',
            handle: { finished: true } satisfies FunnelRouteHandle,
            lazy: screen(() => import('@/features/funnel/screens/request-cash-screen')),
          },
        ],
      },
      { path: 'apply/:alias?', loader: applyAliasLoader },
      { path: 'mapping-lender', lazy: matchingScreen },
      { path: 'configuration', lazy: matchingScreen },
      // The outcome screens (docs/product-rules.md §outcome-screens); `outcomeRoute` in contracts picks one.
      { path: 'redirect', lazy: screen(() => import('@/features/outcome/screens/redirect-screen')) },
      {
        path: 'redirect-upstart',
        lazy: screen(() => import('@/features/outcome/screens/redirect-upstart-screen')),
      },
      {
        path: 'redirect-upgrade',
        lazy: screen(() => import('@/features/outcome/screens/redirect-upgrade-screen')),
      },
      { path: 'reject-page', lazy: screen(() => import('@/features/outcome/screens/reject-screen')) },
      // The site's reading pages and privacy forms (spec §2 "Other routes"), each its own chunk.
      { path: 'frequently-asked-questions', lazy: screen(() => import('@/features/content/faq-page')) },
      {
        path: 'credit-authorization-agreement',
        lazy: screen(() => import('@/features/content/credit-authorization-page')),
      },
      { path: 'terms-of-use', lazy: screen(() => import('@/features/content/terms-of-use-page')) },
      { path: 'privacy', lazy: screen(() => import('@/features/content/privacy-policy-page')) },
      { path: 'contact-us', lazy: screen(() => import('@/features/content/contact-us-page')) },
      { path: 'disclaimer', lazy: screen(() => import('@/features/content/disclaimer-page')) },
      { path: 'congratulations', lazy: screen(() => import('@/features/content/congratulations-page')) },
      { path: 'partners', lazy: screen(() => import('@/features/partners/components/partners-page')) },
      {
        path: 'unsubscribe',
        lazy: screen(() => import('@/features/privacy-requests/components/unsubscribe-page')),
      },
      {
        path: 'do-not-sell-information',
        lazy: screen(() => import('@/features/privacy-requests/components/do-not-sell-page')),
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
    lazy: screen(() => import('@/features/operator/components/operator-page')),
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}

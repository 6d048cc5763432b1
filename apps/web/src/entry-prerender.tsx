// Build-time only (docs/adr/0019-html-first-borrower-screens.md): renders each borrower route to HTML with
// React's server API and react-router's static router. scripts/prerender.mjs writes the pages.
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { App } from '@/app/app';
import { routes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';

export { prerenderedPaths, routeSources } from '@/app/router';

/** The screen at `pathname` as HTML, as the browser's first render draws it before any data has arrived. */
export async function render(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} answers ${context.status}, not a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // A lazy component suspends the first time (none on a page today: the header's FAQ list is drawn only in its
  // open dialog): React then leaves the boundary to the browser
  // (`<!--$!-->`). Rendered again once its module has loaded, the page has it all.
  for (let attempt = 1; ; attempt++) {
    const html = renderToString(
      <App queryClient={createQueryClient()}>
        {/* No inline hydration script: the CSP allows none, and no prerendered route has a loader. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </App>,
    );
    if (!html.includes('<!--$!-->')) return html;
    if (attempt === 10)
      throw new Error(`${pathname}: a Suspense boundary still waits after ${attempt} renders`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

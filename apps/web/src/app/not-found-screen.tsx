import { StatusScreen } from './status-screen';

/** Any address the app does not know. */
export function NotFoundScreen() {
  return (
    <StatusScreen title="Page not found">
      <p>We could not find the page you were looking for.</p>
    </StatusScreen>
  );
}

import { LANDING_SAMPLE } from './samples.js';

/** Creates a lead through the landing form, as a browser does; returns the session cookie. */
export async function createLeadSession(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/lead`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(LANDING_SAMPLE),
  });
  if (response.status !== 201) throw new Error(`creating a lead answered ${response.status}`);
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (!cookie) throw new Error('creating a lead set no cookie');
  return cookie;
}

/** Creates `count` leads, `concurrency` at a time. */
export async function createLeadSessions(
  baseUrl: string,
  count: number,
  concurrency = 50,
): Promise<string[]> {
  const cookies: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        cookies.push(await createLeadSession(baseUrl));
      }
    }),
  );
  return cookies;
}

/** The lead id inside a signed session cookie (`lead=<id>.<signature>`). */
export function leadIdOf(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return value.slice(0, value.lastIndexOf('.'));
}

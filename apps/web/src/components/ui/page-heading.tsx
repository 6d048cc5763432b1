import { useEffect, useRef, type ReactNode } from 'react';
import { BRAND_NAME } from '@/config/brand';
import { typingBeforeHydration } from '@/lib/hydration';

interface PageHeadingProps {
  children: ReactNode;
  /** The browser tab's title; defaults to the heading when that is plain text. */
  documentTitle?: string;
  id?: string;
  className?: string;
}

/**
 * The screen's h1. It takes focus when the screen appears, so after every route change a screen reader starts
 * reading the new question and a keyboard user's next Tab lands in the new form. It also names the browser tab
 * (React hoists the `<title>` into the document head).
 */
export function PageHeading({ children, documentTitle, id, className }: PageHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Not when the app takes over a prerendered page the visitor is already typing in.
    if (typingBeforeHydration()) return;
    ref.current?.focus({ preventScroll: true });
  }, []);
  const tabTitle = documentTitle ?? (typeof children === 'string' ? children : undefined);
  return (
    <>
      {tabTitle && <title>{`${tabTitle} | ${BRAND_NAME}`}</title>}
      <h1 ref={ref} id={id} className={className} tabIndex={-1}>
        {children}
      </h1>
    </>
  );
}

import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element's content is wider than the element (it scrolls sideways), followed as either resizes: a
 * table wider than its box says so in words, since a scrollbar that only shows while scrolling (macOS, phones)
 * is no cue at all.
 */
export function useHorizontalOverflow(ref: RefObject<HTMLElement | null>): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setOverflowing(element.scrollWidth > element.clientWidth + 1);
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(element);
    if (element.firstElementChild) resize.observe(element.firstElementChild);
    return () => resize.disconnect();
  }, [ref]);
  return overflowing;
}
